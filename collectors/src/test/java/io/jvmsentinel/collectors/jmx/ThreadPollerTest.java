package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ThreadPollerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ThreadPoller poller = new ThreadPoller(Tags.of("target", "t1"));

  @Test
  void exportsTheTargetsThreadCountsAfterAPoll() throws Exception {
    FakeTarget target = new FakeTarget().threading(42, 17, 50, 12_345);
    poller.bindTo(registry);

    poller.poll(target.server);

    assertThat(gauge("jvm.threads.live")).isEqualTo(42);
    assertThat(gauge("jvm.threads.daemon")).isEqualTo(17);
    assertThat(gauge("jvm.threads.peak")).isEqualTo(50);
    assertThat(registry.get("jvm.threads.started").tag("target", "t1").functionCounter().count())
        .isEqualTo(12_345);
  }

  @Test
  void gaugesGoNaNButTheStartedCounterKeepsItsValueWhileDisconnected() throws Exception {
    FakeTarget target = new FakeTarget().threading(42, 17, 50, 12_345);
    poller.bindTo(registry);
    poller.poll(target.server);

    poller.disconnected();

    assertThat(gauge("jvm.threads.live")).isNaN();
    assertThat(registry.get("jvm.threads.started").functionCounter().count()).isEqualTo(12_345);
  }

  @Test
  void beforeTheFirstPollGaugesAreNaNAndTheCounterIsZero() {
    poller.bindTo(registry);

    assertThat(gauge("jvm.threads.live")).isNaN();
    assertThat(registry.get("jvm.threads.started").functionCounter().count()).isZero();
  }

  private double gauge(String name) {
    return registry.get(name).tag("target", "t1").gauge().value();
  }
}
