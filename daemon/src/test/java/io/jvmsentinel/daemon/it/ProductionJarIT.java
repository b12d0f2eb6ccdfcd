package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.lab.LoopbackPorts;
import io.jvmsentinel.daemon.testing.DaemonHttp;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.SentinelJar;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar users run: it carries no key material (the lab makes its own at run time), and `demo`
 * still runs a TLS scenario from it alone.
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
