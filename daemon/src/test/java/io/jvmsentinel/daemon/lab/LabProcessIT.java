package io.jvmsentinel.daemon.lab;

import static io.jvmsentinel.daemon.testing.JmxClient.RUNTIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.JmxClient;
import io.jvmsentinel.daemon.testing.ProcFs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Forks real lab JVMs: each test starts one or two and is bounded by {@link #READY}. */
class LabProcessIT {

  private static final Duration READY = Duration.ofSeconds(20);

  @ParameterizedTest(name = "JDK {0}")
  @ValueSource(ints = {17, 25})
  void idleLabServesJmxOnLoopback(int feature) throws Exception {
    LabSpec spec = LabSpec.builder("idle").javaHome(Jdks.jdk(feature)).build();
    try (LabProcess lab = spec.start().awaitReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      assertThat(jmx.attribute(RUNTIME, "SpecVersion")).isEqualTo(Integer.toString(feature));
      assertThat(jmx.attribute(RUNTIME, "Pid")).isEqualTo(lab.pid());
      assertThat(lab.jmxHostPort()).isEqualTo("127.0.0.1:" + lab.jmxPort());
      assertThat(ProcFs.listeningTcpPorts(lab.pid())).contains(lab.jmxPort());
      assertThat(lab.events()).first().satisfies(ready -> assertReady(ready, lab));
    }
  }

  @Test
  void threadPerRequestStartsThreadsAtTheConfiguredRate() throws Exception {
    try (LabProcess lab =
            LabSpec.builder("thread-per-request").rate(200).build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      LabEvent onset = lab.awaitOnset("storm", READY);
      assertThat(onset.attribute("rate")).hasValue("200");
      assertThat(onset.atEpochMillis()).isPositive();

      long before = jmx.startedThreads();
      long start = System.nanoTime();
      await().atMost(Duration.ofSeconds(10)).until(() -> jmx.startedThreads() - before >= 400);
      double seconds = (System.nanoTime() - start) / 1e9;
      // 400 starts at 200/s take 2 s; a loaded CI machine gets some slack either way.
      assertThat(seconds).isBetween(1.3, 4.0);
    }
  }

  @Test
  void threadBurstStartsItsPoolOnceThenStaysQuiet() throws Exception {
    try (LabProcess lab = LabSpec.builder("thread-burst").threads(200).build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      lab.awaitOnset("quiet", READY);
      long afterBurst = jmx.startedThreads();
      assertThat(afterBurst).isGreaterThanOrEqualTo(200);
      assertThat(jmx.longAttribute(JmxClient.THREADING, "ThreadCount")).isGreaterThan(200);
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(3))
          .until(() -> jmx.startedThreads() - afterBurst < 10);
    }
  }

  @Test
  void healthyLabWarmsUpThenKeepsAFixedPool() throws Exception {
    LabSpec spec = LabSpec.builder("healthy").warmup(Duration.ofMillis(500)).build();
    try (LabProcess lab = spec.startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      assertThat(lab.awaitOnset("steady", READY).attribute("workers")).hasValue("8");
      long started = jmx.startedThreads();
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(3))
          .until(() -> jmx.startedThreads() - started < 10);
    }
  }

  @Test
  void killedLabStartsAgainOnTheSamePort() throws Exception {
    LabProcess first = LabSpec.builder("idle").build().startReady(READY);
    LabProcess second = null;
    try (JmxClient jmx = JmxClient.connect(first)) {
      // An open connection at kill time leaves the port in TIME_WAIT, as in reconnect tests.
      jmx.attribute(RUNTIME, "Uptime");
      first.kill();
      assertThat(first.isAlive()).isFalse();
      assertThat(LoopbackPorts.accepts(first.jmxPort(), 200)).isFalse();

      second = first.restart(READY);
      assertThat(second.jmxPort()).isEqualTo(first.jmxPort());
      assertThat(second.pid()).isNotEqualTo(first.pid());
      try (JmxClient again = JmxClient.connect(second)) {
        assertThat(again.attribute(RUNTIME, "Pid")).isEqualTo(second.pid());
      }
    } finally {
      first.close();
      if (second != null) {
        second.close();
      }
    }
  }

  @Test
  void startReadyRetriesWhileTheJmxPortIsTaken() throws Exception {
    AtomicInteger bindFailures = new AtomicInteger();
    try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = squatter.getLocalPort();
      // Free the port only once startReady has seen a failed attempt: its retry must succeed.
      Consumer<String> freePortOnSecondFailure =
          line -> {
            if (line.contains("AgentConfigurationError") && bindFailures.incrementAndGet() == 2) {
              closeQuietly(squatter);
            }
          };
      LabSpec spec =
          LabSpec.builder("idle").jmxPort(port).onOutput(freePortOnSecondFailure).build();
      try (LabProcess blocked = spec.start()) {
        assertThatThrownBy(() -> blocked.awaitReady(READY))
            .isInstanceOfSatisfying(
                LabProcessException.class, e -> assertThat(e.portInUse()).isTrue())
            .hasMessageContaining("Port already in use");
      }
      try (LabProcess lab = spec.startReady(READY)) {
        assertThat(lab.jmxPort()).isEqualTo(port);
        assertThat(bindFailures).hasValue(2);
      }
    }
  }

  @Test
  void suspendedLabIsStoppedUntilResumedAndCanStillBeStopped() throws Exception {
    try (LabProcess lab = LabSpec.builder("idle").build().startReady(READY)) {
      lab.suspend();
      await().atMost(Duration.ofSeconds(5)).until(() -> ProcFs.state(lab.pid()) == 'T');

      lab.resume();
      await().atMost(Duration.ofSeconds(5)).until(() -> ProcFs.state(lab.pid()) != 'T');
      try (JmxClient jmx = JmxClient.connect(lab)) {
        assertThat(jmx.longAttribute(RUNTIME, "Uptime")).isPositive();
      }

      lab.suspend();
      lab.stop();
      assertThat(lab.isAlive()).isFalse();
      lab.stop(); // idempotent
    }
  }

  @Test
  void labWithoutJmxRemoteListensOnNoPort() throws Exception {
    try (LabProcess lab = LabSpec.builder("idle").withoutJmxRemote().build().startReady(READY)) {
      assertThat(lab.command()).noneMatch(arg -> arg.contains("jmxremote"));
      assertThat(ProcFs.listeningTcpPorts(lab.pid())).isEmpty();
      assertThatThrownBy(lab::jmxPort).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void labEndsAfterItsDuration() throws Exception {
    LabSpec spec =
        LabSpec.builder("idle").withoutJmxRemote().duration(Duration.ofMillis(300)).build();
    try (LabProcess lab = spec.start()) {
      LabEvent done = lab.awaitEvent(event -> event.type().equals("done"), READY);
      assertThat(done.attribute("scenario")).hasValue("idle");
      await().atMost(READY).until(() -> !lab.isAlive());
      assertThat(lab.exitCode()).hasValue(0);
    }
  }

  @Test
  void awaitReadyReportsTheOutputOfALabThatDied() throws Exception {
    try (LabProcess lab = LabSpec.builder("no-such-scenario").build().start()) {
      assertThatThrownBy(() -> lab.awaitReady(READY))
          .isInstanceOf(LabProcessException.class)
          .hasMessageContaining("exited with code 2")
          .hasMessageContaining("unknown scenario no-such-scenario")
          .hasMessageContaining("thread-per-request");
    }
  }

  private static void assertReady(LabEvent ready, LabProcess lab) {
    assertThat(ready.type()).isEqualTo("ready");
    assertThat(ready.attribute("pid")).hasValue(Long.toString(lab.pid()));
    assertThat(ready.attribute("scenario")).hasValue("idle");
  }

  private static void closeQuietly(ServerSocket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
