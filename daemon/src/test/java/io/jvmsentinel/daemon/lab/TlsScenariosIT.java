package io.jvmsentinel.daemon.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.testing.JmxClient;
import io.jvmsentinel.lab.RequestCounterMBean;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Forks the lab's TLS scenarios and relates thread starts ({@code TotalStartedThreadCount}) to the
 * requests the lab completed ({@link RequestCounterMBean}), both read over JMX.
 */
class TlsScenariosIT {

  private static final Duration READY = Duration.ofSeconds(20);
  private static final long REQUESTS = 100;

  @Test
  void listenerStormStartsOneThreadPerRequest() throws Exception {
    try (LabProcess lab =
            LabSpec.builder("tls-listener-storm").rate(100).build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      assertThat(lab.awaitOnset("storm", READY).attribute("rate")).hasValue("100");
      // JDK-8246039: a HandshakeCompletedNotify-Thread per handshake, one handshake per request.
      assertThat(threadsPerRequest(jmx)).isBetween(0.8, 1.3);
    }
  }

  @Test
  void resumedSessionsOnPlainSocketsStartNoThreadPerRequest() throws Exception {
    try (LabProcess lab = LabSpec.builder("tls-resumed").rate(100).build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      lab.awaitOnset("resumed", READY);
      assertThat(threadsPerRequest(jmx)).isLessThan(0.1);
    }
  }

  @Test
  void fullHandshakesOnPlainSocketsStartNoThreadPerRequest() throws Exception {
    try (LabProcess lab =
            LabSpec.builder("tls-full-handshakes").rate(100).build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      assertThat(lab.awaitOnset("full-handshakes", READY).attribute("rate")).hasValue("100");
      assertThat(threadsPerRequest(jmx)).isLessThan(0.1);
    }
  }

  /** Threads started per completed request over the next {@value #REQUESTS} requests. */
  private static double threadsPerRequest(JmxClient jmx) {
    // Let the first connection (and its one-off threads: keep-alive timer, pools) pass.
    await().atMost(READY).until(() -> completed(jmx) >= 10);
    long requestsBefore = completed(jmx);
    long threadsBefore = jmx.startedThreads();
    await().atMost(Duration.ofSeconds(30)).until(() -> completed(jmx) - requestsBefore >= REQUESTS);
    long threads = jmx.startedThreads() - threadsBefore;
    long requests = completed(jmx) - requestsBefore;
    assertThat(jmx.longAttribute(RequestCounterMBean.OBJECT_NAME, "Failed")).isZero();
    return (double) threads / requests;
  }

  private static long completed(JmxClient jmx) {
    return jmx.longAttribute(RequestCounterMBean.OBJECT_NAME, "Completed");
  }
}
