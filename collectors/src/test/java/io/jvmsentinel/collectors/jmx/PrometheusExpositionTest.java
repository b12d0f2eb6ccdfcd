package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import org.junit.jupiter.api.Test;

/** Golden exposition text: the exact lines a Prometheus scrape sees for known MBean values. */
@SuppressWarnings("deprecation") // the simpleclient registry is deprecated upstream
class PrometheusExpositionTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @Test
  void threadAndCodeCacheSeriesUseMicrometersStandardNamesWithTheTargetTag() throws Exception {
    FakeTarget target =
        new FakeTarget()
            .threading(42, 17, 50, 12_345)
            .pool(
                "CodeHeap 'profiled nmethods'",
                MemoryType.NON_HEAP,
                new MemoryUsage(2_555_904, 11_534_336, 12_582_912, 122_912_768),
                new MemoryUsage(2_555_904, 11_534_336, 12_582_912, 122_912_768));
    Tags tags = Tags.of("target", "orders");
    ThreadPoller threads = new ThreadPoller(tags);
    MemoryPoolPoller memory = new MemoryPoolPoller(tags);
    threads.bindTo(registry);
    memory.bindTo(registry);
    memory.connected(target.server);
    threads.poll(target.server);
    memory.poll(target.server);

    assertThat(registry.scrape().lines())
        .contains(
            "# HELP jvm_threads_live_threads The current number of live threads including both"
                + " daemon and non-daemon threads",
            "# TYPE jvm_threads_live_threads gauge",
            "jvm_threads_live_threads{target=\"orders\",} 42.0",
            "jvm_threads_daemon_threads{target=\"orders\",} 17.0",
            "jvm_threads_peak_threads{target=\"orders\",} 50.0",
            "# TYPE jvm_threads_started_threads_total counter",
            "jvm_threads_started_threads_total{target=\"orders\",} 12345.0",
            "jvm_memory_used_bytes{area=\"nonheap\",id=\"CodeHeap 'profiled nmethods'\",target=\"orders\",}"
                + " 1.1534336E7",
            "jvm_memory_max_bytes{area=\"nonheap\",id=\"CodeHeap 'profiled nmethods'\",target=\"orders\",}"
                + " 1.22912768E8");
  }
}
