package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.discovery.MockApiServer;
import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.OtlpReceiver;
import io.jvmsentinel.daemon.testing.SentinelJar;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import jnr.unixsocket.UnixDatagramChannel;
import jnr.unixsocket.UnixSocketAddress;
import jnr.unixsocket.UnixSocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar users run: it carries no key material (the lab makes its own at run time), `demo` still
 * runs a TLS scenario from it alone, and every feature whose library the shade trims (fabric8's
 * client with the core model only, jffi's Linux natives, OTLP's metrics messages, uPlot's one
 * build) still works from it alone.
 */
class ProductionJarIT {
  @TempDir Path dir;

  @Test
  void holdsNoKeystoreCertificateOrPrivateKey() throws Exception {
    List<String> keyMaterial;
    try (JarFile jar = new JarFile(SentinelJar.jar().toFile())) {
      keyMaterial =
          jar.stream()
              .map(JarEntry::getName)
              .filter(name -> name.matches("(?i).*\\.(p12|pfx|jks|jceks|pem|key|crt|cer|der)$"))
              .collect(Collectors.toList());
      assertThat(jar.getEntry("io/jvmsentinel/lab/LabMain.class")).isNotNull();
    }
    assertThat(keyMaterial).isEmpty();
  }

  @Test
  void trimmedLibrariesStillServeTheirFeatures() throws Exception {
    int port = LoopbackPorts.freePort();
    Path socket = dir.resolve("dsd.socket");
    try (MockApiServer api = new MockApiServer();
        OtlpReceiver otlp = OtlpReceiver.start();
        UnixDatagramChannel agent = UnixDatagramChannel.open()) {
      agent.bind(new UnixSocketAddress(socket.toFile()));
      api.client()
          .pods()
          .resource(MockApiServer.annotatedPod("shop", "orders-0", "127.0.0.1", "node-a", 1))
          .create();
      Path config = dir.resolve("sentinel.yaml");
      Files.writeString(
          config,
          """
          http:
            listen: 127.0.0.1:%d
          datadog:
            enabled: true
            address: unix://%s
            step: 1s
          otlp:
            enabled: true
            endpoint: %s
            step: 1s
            readTimeout: 1s
          discovery:
            kubernetes:
              apiServer: %s
          """
              .formatted(port, socket, otlp.url(), api.url()));
      Process daemon =
          SentinelJar.command(Jdks.jdk17(), Map.of(), "run", "--config", config.toString())
              .redirectOutput(dir.resolve("daemon.out").toFile())
              .redirectError(dir.resolve("daemon.err").toFile())
              .start();
      try {
        featuresWork(port, otlp, agent);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            e.getMessage()
                + "\ndaemon's output:\n"
                + Files.readString(dir.resolve("daemon.out"))
                + Files.readString(dir.resolve("daemon.err")),
            e);
      } finally {
        daemon.destroy();
        if (!daemon.waitFor(20, TimeUnit.SECONDS)) {
          daemon.destroyForcibly();
        }
      }
    }
  }

  private static void featuresWork(int port, OtlpReceiver otlp, UnixDatagramChannel agent)
      throws Exception {
    DaemonHttp http = new DaemonHttp(port);
    await("the annotated pod as a target, through fabric8's client from the jar")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> http.get("/api/v1/targets").body().contains("shop.orders-0"));
    await("an OTLP push, decoded as OTLP metrics")
        .atMost(Duration.ofSeconds(30))
        .until(() -> !otlp.received().isEmpty());
    ByteBuffer datagram = ByteBuffer.allocate(65_536);
    agent.setOption(UnixSocketOptions.SO_RCVTIMEO, 30_000);
    agent.receive(datagram);
    assertThat(datagram.position()).as("a DogStatsD datagram on the Unix socket").isPositive();
    HttpResponse<String> uplot = http.get("/ui/uPlot.iife.min.js");
    assertThat(uplot.statusCode()).isEqualTo(200);
    assertThat(uplot.body()).contains("uPlot");
  }

  @Test
  void demoRunsATlsScenarioFromTheJarAlone() throws Exception {
    int port = LoopbackPorts.freePort();
    Process demo =
        SentinelJar.command(
                Jdks.jdk17(),
                Map.of(),
                "demo",
                "tls-full-handshakes",
                "--listen",
                "127.0.0.1:" + port,
                "--view-interval",
                "60")
            .redirectOutput(dir.resolve("demo.out").toFile())
            .redirectError(dir.resolve("demo.err").toFile())
            .start();
    try {
      DaemonHttp http = new DaemonHttp(port);
      await("TLS handshakes of the lab, seen by the demo's daemon")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .until(() -> http.scrape().sum("jvm_tls_handshakes_total", Map.of()) > 0);
    } finally {
      demo.destroy();
      if (!demo.waitFor(20, TimeUnit.SECONDS)) {
        demo.destroyForcibly();
      }
    }
  }
}
