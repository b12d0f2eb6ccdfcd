package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import javax.management.MBeanServer;
import org.junit.jupiter.api.Test;

/**
 * The pollers against a real JVM's MBeans: this test JVM's own platform MBean server, which speaks
 * the same MBean interface a remote connection does (remote targets are covered by the daemon's
 * integration tests).
 */
class PlatformPollersTest {
  private final MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final JmxPollers pollers = JmxPollers.create(Tags.of("target", "self"));

  @Test
  void readsTheIdentityAndVmOptionsOfARealJvm() throws Exception {
    bindConnectAndPoll();

    JvmIdentity identity = pollers.identity().identity();
    assertThat(identity.featureVersion()).isEqualTo(Runtime.version().feature());
    assertThat(identity.javaVersion()).isEqualTo(System.getProperty("java.runtime.version"));
    assertThat(identity.pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(identity.vmOptions()).containsKeys("ReservedCodeCacheSize", "TieredCompilation");
    assertThat(
            registry
                .get("jvm.info")
                .tag("version", System.getProperty("java.runtime.version"))
                .gauge()
                .value())
        .isEqualTo(1);
  }

  @Test
  void codeCacheMaxAddsUpToTheReservedCodeCacheSize() throws Exception {
    bindConnectAndPoll();

    long reserved =
        Long.parseLong(pollers.identity().identity().vmOptions().get("ReservedCodeCacheSize"));
    double codeCacheMax =
        pollers.memory().pools().stream()
            .filter(MemoryPoolPoller.Pool::isCodeCache)
            .mapToDouble(pool -> pollers.memory().usage(pool).max())
            .sum();
    assertThat(codeCacheMax).isEqualTo((double) reserved);
  }

  @Test
  void threadStartsOfThisJvmAreCounted() throws Exception {
    bindConnectAndPoll();
    double before = registry.get("jvm.threads.started").functionCounter().count();

    for (int i = 0; i < 5; i++) {
      Thread thread = new Thread(() -> {});
      thread.start();
      thread.join();
    }
    pollers.threads().poll(platform);

    assertThat(registry.get("jvm.threads.started").functionCounter().count())
        .isGreaterThanOrEqualTo(before + 5);
  }

  @Test
  void aGcNotificationBecomesAPauseSampleWithGcActionAndCauseTags() throws Exception {
    bindConnectAndPoll();

    System.gc();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              Timer pause = registry.find("jvm.gc.pause").tag("cause", "System.gc()").timer();
              assertThat(pause).isNotNull();
              assertThat(pause.count()).isGreaterThanOrEqualTo(1);
              assertThat(pause.getId().getTag("gc")).isNotBlank();
              assertThat(pause.getId().getTag("action")).startsWith("end of");
            });
    pollers.gc().poll(platform);
    assertThat(registry.get("jvm.gc.collections").functionCounters())
        .anySatisfy(counter -> assertThat(counter.count()).isGreaterThanOrEqualTo(1));
  }

  @Test
  void processAndClassReadingsArePlausible() throws Exception {
    bindConnectAndPoll();

    assertThat(registry.get("system.cpu.count").gauge().value())
        .isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(registry.get("process.cpu.time").functionCounter().count()).isPositive();
    assertThat(registry.get("process.uptime").timeGauge().value()).isPositive();
    assertThat(registry.get("jvm.classes.loaded").gauge().value()).isGreaterThan(1000);
    // Loaded since start: at least what is loaded now.
    assertThat(registry.get("jvm.classes.loads").functionCounter().count())
        .isGreaterThanOrEqualTo(registry.get("jvm.classes.loaded").gauge().value());
    assertThat(registry.get("jvm.compilation.time").functionCounter().count()).isPositive();
  }

  @Test
  void heapPoolsReportWhatTheirLastCollectionLeftAndOtherPoolsDoNot() throws Exception {
    System.gc(); // every heap pool has been collected at least once
    bindConnectAndPoll();

    var afterGc = registry.find("jvm.memory.used.after.gc").gauges();
    assertThat(afterGc)
        .isNotEmpty()
        .allSatisfy(g -> assertThat(g.getId().getTag("area")).isEqualTo("heap"))
        .allSatisfy(g -> assertThat(g.value()).isNotNaN().isNotNegative());
    assertThat(registry.find("jvm.memory.used").tag("area", "nonheap").gauges()).isNotEmpty();
  }

  @Test
  void bufferPoolsThreadStatesAndOpenFilesCarryMicrometersNamesAndTags() throws Exception {
    java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(1 << 20);
    bindConnectAndPoll();

    assertThat(registry.get("jvm.buffer.memory.used").tag("id", "direct").gauge().value())
        .isGreaterThanOrEqualTo(direct.capacity());
    assertThat(registry.get("jvm.buffer.total.capacity").tag("id", "direct").gauge().value())
        .isGreaterThanOrEqualTo(direct.capacity());
    assertThat(registry.get("jvm.buffer.count").tag("id", "direct").gauge().value())
        .isGreaterThanOrEqualTo(1);
    double live = registry.get("jvm.threads.live").gauge().value();
    double byState =
        registry.get("jvm.threads.states").gauges().stream().mapToDouble(g -> g.value()).sum();
    assertThat(byState)
        .as("threads per state add up to the live threads")
        .isCloseTo(live, org.assertj.core.api.Assertions.within(live * 0.2));
    assertThat(registry.get("jvm.threads.states").tag("state", "runnable").gauge().value())
        .as("this thread")
        .isGreaterThanOrEqualTo(1);
    assertThat(registry.get("jvm.threads.states").tag("state", "timed-waiting").gauge())
        .isNotNull();
    assertThat(registry.get("process.files.open").gauge().value()).isPositive();
    assertThat(registry.get("process.files.max").gauge().value())
        .isGreaterThan(registry.get("process.files.open").gauge().value());
  }

  @Test
  void collectionsAccountAllocatedBytesAndLiveDataSize() throws Exception {
    bindConnectAndPoll();
    System.gc(); // a major collection: live data size, and the young size to count from

    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              // Garbage until young collections happen on their own (G1 counts eden by region).
              long sum = 0;
              for (int i = 0; i < 512; i++) {
                sum += new byte[64 * 1024].length;
              }
              assertThat(sum).isPositive();
              assertThat(registry.get("jvm.gc.memory.allocated").counter().count()).isPositive();
              assertThat(registry.get("jvm.gc.live.data.size").gauge().value()).isPositive();
              assertThat(registry.get("jvm.gc.max.data.size").gauge().value()).isPositive();
            });
    assertThat(registry.get("jvm.gc.memory.promoted").counter().count()).isNotNegative();
  }

  private void bindConnectAndPoll() throws Exception {
    for (JmxPoller poller : pollers.all()) {
      poller.bindTo(registry);
      poller.connected(platform);
      poller.poll(platform);
    }
  }
}
