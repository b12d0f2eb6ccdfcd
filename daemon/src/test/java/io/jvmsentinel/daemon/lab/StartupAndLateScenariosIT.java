package io.jvmsentinel.daemon.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.JmxClient;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forks the JIT and GC scenarios of issue 12 (a feature switched on late, churn from boot, GC
 * pressure at start-up) and measures each from the target: its own JFR recording of every
 * compilation, its code cache pools, class unloading and collector times over JMX.
 */
class StartupAndLateScenariosIT {

  private static final Duration READY = Duration.ofSeconds(20);
  private static final String CLASS_LOADING = "java.lang:type=ClassLoading";
  private static final String HOT_CODE = "io.jvmsentinel.lab.HotCodeTemplate";

  @TempDir Path dir;

  @Test
  void featureAfterWarmupIsABurstOfFirstTimeCompilationsWithoutChurnOrThreads() throws Exception {
    TargetRecording recording =
        TargetRecording.of(dir, "jdk.Compilation", "jdk.ThreadStart", "jdk.Deoptimization");
    double occupancy;
    try (LabProcess lab =
            LabScenarios.builder("feature-after-warmup")
                .jvmArgs(recording.jvmFlag())
                .warmup(Duration.ofSeconds(2))
                .args("--pause", "14s")
                .duration(Duration.ofSeconds(28))
                .build()
                .startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      Instant feature = Instant.ofEpochMilli(lab.awaitOnset("feature", READY).atEpochMillis());
      Thread.sleep(8_000);
      occupancy = codeCacheOccupancy(jmx);
      await().atMost(Duration.ofSeconds(30)).until(() -> !lab.isAlive());

      Compilations before = Compilations.of(recording, feature.minusSeconds(10), feature);
      Compilations after = Compilations.of(recording, feature, feature.plusSeconds(10));
      int threads = recording.events("jdk.ThreadStart", feature, feature.plusSeconds(10)).size();
      int deopts = recording.events("jdk.Deoptimization", feature, feature.plusSeconds(10)).size();
      System.out.printf(
          Locale.ROOT,
          "feature-after-warmup JDK %d: 10 s before the switch %s; 10 s after %s; %d thread"
              + " starts, %d deoptimisations after; code cache %.3f of max%n",
          Runtime.version().feature(),
          before,
          after,
          threads,
          deopts,
          occupancy);
      assertThat(after.count()).as("compilations after the switch").isGreaterThan(200);
      assertThat(after.count()).isGreaterThan(5 * Math.max(1, before.count()));
      assertThat(after.recompiledShare()).as("same method, same tier again").isLessThan(0.05);
      assertThat(threads).as("thread starts after the switch").isLessThan(3);
      assertThat(occupancy).as("code cache occupancy").isLessThan(0.2);
    }
  }

  @ParameterizedTest(name = "JDK {0}")
  @ValueSource(ints = {17, 25})
  void churnFromBootFillsAn8MbCacheFlushesAndRecompilesInItsFirstMinute(int feature)
      throws Exception {
    TargetRecording recording = TargetRecording.of(dir, "jdk.Compilation");
    try (LabProcess lab =
            LabScenarios.builder("churn-from-boot", Jdks.jdk(feature), feature)
                .jvmArgs(recording.jvmFlag())
                .duration(Duration.ofSeconds(58))
                .build()
                .startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      Instant onset = Instant.ofEpochMilli(lab.awaitOnset("churn", READY).atEpochMillis());
      double high = 0;
      double lastHigh = 0;
      int falls = 0;
      double firstNearMaxAt = Double.NaN;
      while (lab.isAlive() && Duration.between(onset, Instant.now()).toSeconds() < 55) {
        double occupancy = codeCacheOccupancy(jmx);
        if (occupancy < lastHigh - 0.05) {
          falls++; // code was flushed
          lastHigh = occupancy;
        }
        lastHigh = Math.max(lastHigh, occupancy);
        high = Math.max(high, occupancy);
        if (occupancy >= 0.8 && Double.isNaN(firstNearMaxAt)) {
          firstNearMaxAt = Duration.between(onset, Instant.now()).toMillis() / 1e3;
        }
        Thread.sleep(250);
      }
      long unloaded = jmx.longAttribute(CLASS_LOADING, "UnloadedClassCount");
      await().atMost(Duration.ofSeconds(30)).until(() -> !lab.isAlive());
      Compilations churn = Compilations.of(recording, onset, onset.plusSeconds(55));
      long hotRecompiled = churn.recompilationsOf(HOT_CODE);
      System.out.printf(
          Locale.ROOT,
          "churn-from-boot JDK %d: occupancy up to %.2f of 8 MB, >= 0.8 after %.1f s, %d falls"
              + " (flushing), %d classes unloaded; %s; %d recompilations of %s methods%n",
          feature,
          high,
          firstNearMaxAt,
          falls,
          unloaded,
          churn,
          hotRecompiled,
          HOT_CODE);
      assertThat(high).as("peak occupancy in the first 55 s").isGreaterThan(0.8);
      assertThat(falls).as("occupancy falls: code is flushed").isPositive();
      assertThat(hotRecompiled).as("the same methods compiled again").isGreaterThan(500);
    }
  }

  @Test
  void gcAtStartupPausesHeavilyThenRunsHealthy() throws Exception {
    try (LabProcess lab =
            LabScenarios.builder("gc-at-startup").args("--phase", "12s").build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      lab.awaitOnset("gc", READY);
      Thread.sleep(2_000);
      double startup = gcShare(jmx, Duration.ofSeconds(6));
      lab.awaitOnset("startup-over", READY);
      Thread.sleep(3_000);
      double after = gcShare(jmx, Duration.ofSeconds(6));
      System.out.printf(
          Locale.ROOT,
          "gc-at-startup JDK %d (-Xmx64m): GC share of wall time %.2f during start-up, %.3f after%n",
          Runtime.version().feature(),
          startup,
          after);
      assertThat(startup).as("GC share during start-up").isGreaterThan(0.3);
      assertThat(after).as("GC share once start-up is over").isLessThan(0.05);
    }
  }

  /** Share of wall time the target's collectors spent over the next {@code window}. */
  private static double gcShare(JmxClient jmx, Duration window) throws Exception {
    Map<String, Long> before = JitScenariosIT.gcTimes(jmx);
    long start = System.nanoTime();
    Thread.sleep(window.toMillis());
    Map<String, Long> after = JitScenariosIT.gcTimes(jmx);
    long gcMs = 0;
    for (Map.Entry<String, Long> entry : after.entrySet()) {
      gcMs += entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
    }
    return gcMs / ((System.nanoTime() - start) / 1e6);
  }

  /** Used share of the code cache's maximum, over all its pools (segmented or not). */
  private static double codeCacheOccupancy(JmxClient jmx) throws Exception {
    long used = 0;
    long max = 0;
    for (ObjectName pool :
        jmx.connection().queryNames(new ObjectName("java.lang:type=MemoryPool,*"), null)) {
      String name = pool.getKeyProperty("name");
      boolean nonHeap =
          MemoryType.NON_HEAP.name().equals(jmx.attribute(pool.toString(), "Type").toString());
      if (nonHeap && (name.startsWith("CodeHeap") || name.equals("CodeCache"))) {
        CompositeData usage = (CompositeData) jmx.attribute(pool.toString(), "Usage");
        used += ((Number) usage.get("used")).longValue();
        max += ((Number) usage.get("max")).longValue();
      }
    }
    return (double) used / max;
  }

  /** The target's compilations in a window: how many, and how many repeated a method and tier. */
  private record Compilations(
      int count, int distinct, double seconds, Map<String, Integer> perMethodAndTier) {
    static Compilations of(TargetRecording recording, Instant from, Instant to)
        throws java.io.IOException {
      List<RecordedEvent> events = recording.events("jdk.Compilation", from, to);
      Map<String, Integer> perMethodAndTier = new HashMap<>();
      for (RecordedEvent event : events) {
        var method = event.getValue("method");
        String key =
            ((jdk.jfr.consumer.RecordedMethod) method).getType().getName()
                + "."
                + ((jdk.jfr.consumer.RecordedMethod) method).getName()
                + ((jdk.jfr.consumer.RecordedMethod) method).getDescriptor()
                + "@"
                + event.getValue("compileLevel")
                + (event.getBoolean("isOsr") ? "osr" : "");
        perMethodAndTier.merge(key, 1, Integer::sum);
      }
      return new Compilations(
          events.size(),
          perMethodAndTier.size(),
          Duration.between(from, to).toMillis() / 1e3,
          perMethodAndTier);
    }

    /** Compilations that repeated a method and tier already compiled in the window. */
    double recompiledShare() {
      return count == 0 ? 0 : (double) (count - distinct) / count;
    }

    long recompilationsOf(String type) {
      return perMethodAndTier.entrySet().stream()
          .filter(e -> e.getKey().startsWith(type + "."))
          .mapToLong(e -> e.getValue() - 1)
          .sum();
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%d compilations (%.1f/s over %.0f s), %d distinct method+tier, %.1f%% repeats",
          count,
          count / seconds,
          seconds,
          distinct,
          100 * recompiledShare());
    }
  }
}
