package io.jvmsentinel.daemon.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.JmxClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forks the JIT, code cache and GC scenarios with the flags of {@link LabScenarios} and measures
 * each mechanism from the target itself: JMX platform MBeans, the DiagnosticCommand {@code
 * compilerCodecache}, and a JFR recording of the target for deoptimisations (no MBean counts them).
 * The figures are printed so they can be quoted.
 */
class JitScenariosIT {

  private static final Duration READY = Duration.ofSeconds(20);
  private static final String CODE_CACHE_POOL = "java.lang:type=MemoryPool,name=CodeCache";
  private static final String COMPILATION = "java.lang:type=Compilation";
  private static final String CLASS_LOADING = "java.lang:type=ClassLoading";
  private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

  @Test
  void codecacheChurnCompilesUnloadsAndFlushesContinuously() throws Exception {
    try (LabProcess lab = LabScenarios.builder("codecache-churn").build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      lab.awaitOnset("churn", READY);
      Thread.sleep(3_000); // past the start-up compilations
      long compileBefore = jmx.longAttribute(COMPILATION, "TotalCompilationTime");
      long unloadedBefore = jmx.longAttribute(CLASS_LOADING, "UnloadedClassCount");
      long max = usage(jmx, "max");
      long low = Long.MAX_VALUE;
      long high = 0;
      long start = System.nanoTime();
      while (System.nanoTime() - start < 8_000_000_000L) {
        long used = usage(jmx, "used");
        low = Math.min(low, used);
        high = Math.max(high, used);
        Thread.sleep(250);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long compileMs = jmx.longAttribute(COMPILATION, "TotalCompilationTime") - compileBefore;
      long unloaded = jmx.longAttribute(CLASS_LOADING, "UnloadedClassCount") - unloadedBefore;
      long peak = ((Number) peak(jmx).get("used")).longValue();
      String status = codecache(jmx);
      System.out.printf(
          Locale.ROOT,
          "codecache-churn JDK %d: CodeCache max %d KB, used %d..%d KB (%.2f..%.2f), peak %.2f;"
              + " compilation %d ms in %.1f s; %d classes unloaded; %s%n",
          Runtime.version().feature(),
          max / 1024,
          low / 1024,
          high / 1024,
          (double) low / max,
          (double) high / max,
          (double) peak / max,
          compileMs,
          seconds,
          unloaded,
          statusLine(status));
      assertThat(max).isEqualTo(4L * 1024 * 1024);
      assertThat((double) peak / max).as("peak occupancy").isGreaterThan(0.5);
      assertThat(high - low).as("occupancy oscillates: code is flushed").isGreaterThan(0);
      assertThat(compileMs).as("compilation time keeps rising").isGreaterThan(100);
      assertThat(unloaded).as("generated classes are unloaded").isGreaterThan(50);
      assertThat(status.toLowerCase(Locale.ROOT)).contains("compilation: enabled");
    }
  }

  @Test
  void codecacheFullDisablesCompilationOnJdk17() throws Exception {
    assertCodecacheFull(17);
  }

  @Test
  void codecacheFullDisablesCompilationOnJdk25() throws Exception {
    assertCodecacheFull(25);
  }

  private static void assertCodecacheFull(int feature) throws Exception {
    try (LabProcess lab =
            LabScenarios.builder("codecache-full", Jdks.jdk(feature), feature)
                .build()
                .startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      lab.awaitOnset("fill", READY);
      var full = lab.awaitOnset("full", Duration.ofSeconds(30));
      String atOnset = codecache(jmx);
      Thread.sleep(3_000);
      String later = codecache(jmx);
      System.out.printf(
          Locale.ROOT,
          "codecache-full JDK %d: disabled after %s ms and %s copies; 3 s later: %s%n",
          feature,
          full.attribute("after_ms").orElse("?"),
          full.attribute("copies").orElse("?"),
          statusLine(later));
      assertThat(atOnset.toLowerCase(Locale.ROOT)).contains("compilation: disabled");
      assertThat(later.toLowerCase(Locale.ROOT)).contains("compilation: disabled");
      assertThat(later).containsPattern("full_count=[1-9]");
    }
  }

  @Test
  void deoptStormDeoptimisesAtASteadyRate(@TempDir Path dir) throws Exception {
    Path recording = dir.resolve("deopt.jfr");
    try (LabProcess lab =
        LabScenarios.builder("deopt-storm")
            .jvmArgs("-XX:StartFlightRecording:filename=" + recording + ",settings=profile")
            .duration(Duration.ofSeconds(10))
            .build()
            .startReady(READY)) {
      Instant onset = Instant.ofEpochMilli(lab.awaitOnset("deopt", READY).atEpochMillis());
      await().atMost(Duration.ofSeconds(30)).until(() -> !lab.isAlive());
      assertThat(lab.exitCode()).hasValue(0);
      Instant from = onset.plusSeconds(2);
      Map<String, Integer> actions = new TreeMap<>();
      Instant last = from;
      int count = 0;
      for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
        if (event.getEventType().getName().equals("jdk.Deoptimization")
            && !event.getStartTime().isBefore(from)
            && event.getThread() != null
            && "main".equals(event.getThread().getJavaName())) {
          count++;
          actions.merge(event.getString("action"), 1, Integer::sum);
          if (event.getStartTime().isAfter(last)) {
            last = event.getStartTime();
          }
        }
      }
      double seconds = Duration.between(from, last).toMillis() / 1000.0;
      double rate = count / seconds;
      System.out.printf(
          Locale.ROOT,
          "deopt-storm JDK %d: %d jdk.Deoptimization on main in %.1f s = %.1f/s, actions %s%n",
          Runtime.version().feature(),
          count,
          seconds,
          rate,
          actions);
      assertThat(Files.size(recording)).isPositive();
      assertThat(seconds).isGreaterThan(5);
      assertThat(rate).as("deoptimisations per second").isGreaterThan(20);
      assertThat(actions).containsKey("make_not_entrant");
    }
  }

  @Test
  void gcPressureSpendsMoreThanAThirdOfWallTimeInGc() throws Exception {
    try (LabProcess lab = LabScenarios.builder("gc-pressure").build().startReady(READY);
        JmxClient jmx = JmxClient.connect(lab)) {
      lab.awaitOnset("gc", READY);
      Thread.sleep(2_000);
      Map<String, Long> before = gcTimes(jmx);
      long start = System.nanoTime();
      Thread.sleep(6_000);
      Map<String, Long> after = gcTimes(jmx);
      double wallMs = (System.nanoTime() - start) / 1e6;
      long gcMs = 0;
      Map<String, Long> deltas = new TreeMap<>();
      for (Map.Entry<String, Long> entry : after.entrySet()) {
        long delta = entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
        deltas.put(entry.getKey(), delta);
        gcMs += delta;
      }
      double share = gcMs / wallMs;
      System.out.printf(
          Locale.ROOT,
          "gc-pressure JDK %d (-Xmx64m): GC %d ms in %.0f ms wall = %.2f, by collector %s%n",
          Runtime.version().feature(),
          gcMs,
          wallMs,
          share,
          deltas);
      assertThat(share).as("share of wall time in GC").isGreaterThan(0.3);
    }
  }

  /** CollectionTime per collector, without JDK 25's concurrent-cycle bean (not pause time). */
  static Map<String, Long> gcTimes(JmxClient jmx) throws Exception {
    Set<ObjectName> names =
        jmx.connection().queryNames(new ObjectName("java.lang:type=GarbageCollector,*"), null);
    Map<String, Long> times = new TreeMap<>();
    for (ObjectName name : names) {
      String collector = name.getKeyProperty("name");
      if (!collector.contains("Concurrent")) {
        times.put(collector, jmx.longAttribute(name.toString(), "CollectionTime"));
      }
    }
    return times;
  }

  private static long usage(JmxClient jmx, String key) {
    return ((Number) ((CompositeData) jmx.attribute(CODE_CACHE_POOL, "Usage")).get(key))
        .longValue();
  }

  private static CompositeData peak(JmxClient jmx) {
    return (CompositeData) jmx.attribute(CODE_CACHE_POOL, "PeakUsage");
  }

  private static String codecache(JmxClient jmx) throws Exception {
    return (String)
        jmx.connection()
            .invoke(
                new ObjectName(DIAGNOSTIC_COMMAND),
                "compilerCodecache",
                new Object[] {new String[0]},
                new String[] {String[].class.getName()});
  }

  private static String statusLine(String text) {
    for (String line : text.split("\n")) {
      if (line.toLowerCase(Locale.ROOT).contains("compilation:")) {
        return line.trim();
      }
    }
    return "(no status line)";
  }
}
