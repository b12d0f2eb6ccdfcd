package io.jvmsentinel.daemon.export.datadog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

import com.timgroup.statsd.NonBlockingStatsDClient;
import io.jvmsentinel.daemon.config.DogStatsdAddress;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No agent: a step and a notification still return at once and throw nothing, and what cannot be
 * sent is counted. When the agent's socket appears, data flows again.
 */
class AgentDownTest {
  // Far more than queueing 5 steps takes (tens of ms once warm), far less than waiting for an agent
  // would: the client's send timeout is 100 ms per packet, and 5 steps make hundreds of packets.
  static final Duration QUICK = Duration.ofSeconds(3);

  @TempDir Path dir;
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  NonBlockingStatsDClient client;

  @BeforeEach
  void meters() {
    for (int i = 0; i < 200; i++) {
      Gauge.builder("test.gauge", () -> 1.0).tag("i", "" + i).register(registry);
      Counter.builder("test.counter").tag("i", "" + i).register(registry).increment();
    }
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.stop();
    }
  }

  /** 5 steps and 5 notifications, timed. */
  Duration publishAndNotify(DogStatsdAddress address) {
    client = DogStatsdClients.create(address, Map.of(), registry);
    DogStatsdPublisher publisher = new DogStatsdPublisher(registry, client, Duration.ofSeconds(1));
    DatadogNotifier notifier = new DatadogNotifier(client, 1432, address.toString());
    long start = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      publisher.publishOnce();
      notifier.send(DatadogNotifierTest.firing());
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  double sendErrors() {
    return registry.get("jvm.sentinel.dogstatsd.errors").tag("reason", "send").counter().count();
  }

  @Test
  void aClosedUdpPortNeitherBlocksNorThrows() throws Exception {
    int port;
    try (DatagramSocket socket =
        new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      port = socket.getLocalPort();
    }
    DogStatsdAddress address = DogStatsdAddress.parse("udp://127.0.0.1:" + port);

    assertThatNoException()
        .isThrownBy(() -> assertThat(publishAndNotify(address)).isLessThan(QUICK));
    // UDP is fire-and-forget: an unconnected socket hears nothing of the closed port, so there is
    // no failure to count. Stopping interrupts a send under way; that is not a failure either.
    client.stop();
    client = null;
    assertThat(sendErrors()).isZero();
    assertThat(
            registry
                .get("jvm.sentinel.dogstatsd.errors")
                .tag("reason", "queue_full")
                .counter()
                .count())
        .isZero();
  }

  @Test
  void aSendCutShortByStoppingIsNotAFailureButARealOneIs() {
    Counter sendErrors = registry.counter("send.errors");
    var handler =
        new DogStatsdClients.CountingErrorHandler(
            DogStatsdAddress.parse("udp://127.0.0.1:8125"), sendErrors);

    handler.handle(new ClosedByInterruptException());
    handler.handle(new AsynchronousCloseException());
    assertThat(sendErrors.count()).isZero();

    handler.handle(new IOException("No such file or directory"));
    assertThat(sendErrors.count()).isEqualTo(1.0);
  }

  @Test
  void anAgentThatReadsNothingDoesNotHoldUpTheSteps() throws Exception {
    try (FakeAgent stuck = FakeAgent.unixSocket(dir)) { // bound, never read: its buffer fills
      assertThat(publishAndNotify(stuck.address())).isLessThan(QUICK);
    }
  }

  @Test
  void aMissingSocketIsCountedAndDataFlowsOnceTheAgentListens() throws Exception {
    DogStatsdAddress address = DogStatsdAddress.parse("unix://" + dir.resolve("dsd.socket"));

    assertThat(publishAndNotify(address)).isLessThan(QUICK);
    await().atMost(Duration.ofSeconds(5)).until(() -> sendErrors() > 0);

    try (FakeAgent agent = FakeAgent.unixSocket(dir)) {
      DogStatsdPublisher publisher =
          new DogStatsdPublisher(registry, client, Duration.ofSeconds(1));
      // What the client had queued while the agent was away may still arrive first.
      agent.nextBatch(client);
      publisher.publishOnce();
      assertThat(agent.nextBatch(client))
          .filteredOn(l -> l instanceof DogStatsdLines.Metric m && m.name().equals("test.gauge"))
          .hasSize(200);
    }
  }
}
