package io.jvmsentinel.bench;

import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Issue 16's scale benchmark: one daemon in fleet mode ({@code discovery.local}, JFR on every
 * target) watching a growing set of real lab JVMs (by default 1, then 10, then 50, the same daemon
 * throughout). At each size, once every target is up and streaming: the daemon's RSS, threads and
 * CPU over a steady window (with the labs' total CPU and the load average beside it, so daemon cost
 * can be told from machine saturation), JFR lag sampled per target at every 15 s scrape, {@code
 * /metrics} latency over back-to-back scrapes and its body size; then a thread storm in one of the
 * targets (a quiet lab replaced by a storming one, so the count stays) and the time from its onset
 * to ThreadStorm firing in {@code /api/v1/alerts}.
 */
final class FleetScaleSection implements BenchSection {
  private static final int STORM_RATE = 200;
  private static final Duration STORM_DELAY = Duration.ofSeconds(30);
  private static final Duration UP_TIMEOUT = Duration.ofSeconds(180);

  @Override
  public String name() {
    return "fleet";
  }

  @Override
  public boolean onRequestOnly() {
    return true;
  }

  @Override
  public Result run(BenchContext c) throws Exception {
    Result result = new Result();
    Duration warmup = c.pick(Duration.ofSeconds(10), Duration.ofSeconds(30));
    Duration window = c.pick(Duration.ofSeconds(20), Duration.ofSeconds(60));
    int scrapes = c.pick(100, 200);
    List<Integer> sizes = c.options.fleetSizes();
    String label = c.options.fleetLabel().orElse("fleet-bench-" + ProcessHandle.current().pid());
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("sizes", sizes);
    settings.put("warmup_s", warmup.toSeconds());
    settings.put("window_s", window.toSeconds());
    settings.put("latency_scrapes", scrapes);
    settings.put("daemon_jvm_flags", c.daemonFlags());
    settings.put("targets", "lab idle " + String.join(" ", Fleet.LAB_FLAGS) + ", no remote JMX");
    settings.put("discovery", "discovery.local, include mainClass + this run's --label");
    settings.put(
        "storm", "thread-per-request --rate " + STORM_RATE + " replacing one quiet target");
    result.put("settings", settings);
    result.line(
        "one daemon, discovery.local, JFR on every target; targets: lab idle %s; window %d s;"
            + " %d back-to-back scrapes",
        String.join(" ", Fleet.LAB_FLAGS), window.toSeconds(), scrapes);
    try (Fleet fleet = new Fleet(c, label);
        DaemonProcess daemon = c.startDaemon("fleet", yaml(label))) {
      Map<Integer, Map<String, Object>> levels = new LinkedHashMap<>();
      for (int size : sizes) {
        c.log("fleet: growing to %d target(s)", size);
        long growStart = System.nanoTime();
        fleet.growTo(size);
        awaitWatched(c, daemon, fleet.quiet(), UP_TIMEOUT);
        double upSeconds = (System.nanoTime() - growStart) / 1e9;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("targets", size);
        m.put("grow_until_all_streaming_s", Stats.round(upSeconds, 1));
        BenchContext.sleep(warmup);
        m.putAll(steadyWindow(c, daemon, fleet, window));
        m.putAll(scrapeLatency(c, daemon, scrapes));
        m.putAll(storm(c, daemon, fleet));
        fleet.growTo(size);
        levels.put(size, m);
        result.put("targets_" + size, m);
        summarise(result, m);
      }
      int largest = sizes.get(sizes.size() - 1);
      check(result, levels.get(largest));
    }
    return result;
  }

  static String yaml(String label) {
    return """
        discovery:
          local:
            interval: 2s
            include:
              - mainClass: '^%s$'
                commandLine: '--label %s( |$)'
        """
        .formatted(Pattern.quote(LabSpec.MAIN_CLASS), Pattern.quote(label));
  }

  /** Waits until every lab is up and its JFR stream available in the daemon's scrape. */
  private static void awaitWatched(
      BenchContext c, DaemonProcess daemon, List<LabProcess> labs, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int missing = labs.size();
    while (System.nanoTime() < deadline) {
      Optional<String> body = scrape(c, daemon);
      if (body.isPresent()) {
        Map<String, Double> up = MetricsText.byTarget(body.get(), "jvm_sentinel_target_up");
        Map<String, Double> jfr = MetricsText.byTarget(body.get(), "jvm_sentinel_jfr_available");
        missing = 0;
        for (LabProcess lab : labs) {
          String name = Fleet.targetName(lab);
          if (up.getOrDefault(name, 0.0) < 1 || jfr.getOrDefault(name, 0.0) < 1) {
            missing++;
          }
        }
        if (missing == 0) {
          return;
        }
      }
      if (!daemon.process.isAlive()) {
        throw new IOException("daemon exited, see " + daemon.dir.resolve("daemon.log"));
      }
      Thread.sleep(1000);
    }
    throw new IOException(
        missing + " of " + labs.size() + " target(s) not up and streaming in " + timeout);
  }

  private static Optional<String> scrape(BenchContext c, DaemonProcess daemon) {
    return c.get(daemon.metricsUrl()).filter(r -> r.statusCode() == 200).map(r -> r.body());
  }

  /**
   * RSS, threads, CPU of the daemon and the labs, load, sampled every 5 s; a scrape every 15 s as
   * Prometheus would, from which each target's current JFR lag is read.
   */
  private static Map<String, Object> steadyWindow(
      BenchContext c, DaemonProcess daemon, Fleet fleet, Duration window) throws Exception {
    List<LabProcess> labs = fleet.quiet();
    List<Double> rss = new ArrayList<>();
    List<Double> threads = new ArrayList<>();
    List<Double> load = new ArrayList<>();
    List<Double> lags = new ArrayList<>();
    // What Prometheus sees: a scrape every 15 s finds the body rendered after the previous one.
    List<Double> paced = new ArrayList<>();
    double lagMax = 0;
    double daemonCpu0 = Procs.cpuSeconds(daemon.pid());
    double labsCpu0 = labsCpu(labs);
    long t0 = System.nanoTime();
    long end = t0 + window.toNanos();
    long nextScrape = t0;
    while (System.nanoTime() < end) {
      rss.add(Procs.rssMb(daemon.pid()));
      threads.add((double) Procs.threads(daemon.pid()));
      load.add(((Number) Machine.loadAverage().getOrDefault("1m", Double.NaN)).doubleValue());
      if (System.nanoTime() >= nextScrape) {
        nextScrape += Duration.ofSeconds(15).toNanos();
        long start = System.nanoTime();
        Optional<String> body = scrape(c, daemon);
        paced.add((System.nanoTime() - start) / 1e6);
        if (body.isPresent()) {
          lags.addAll(
              MetricsText.byTarget(body.get(), "jvm_sentinel_jfr_lag_current_seconds").values());
          for (double max :
              MetricsText.byTarget(body.get(), "jvm_sentinel_jfr_lag_seconds_max").values()) {
            lagMax = Math.max(lagMax, max);
          }
        }
      }
      Thread.sleep(Math.min(5_000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double daemonCpu = (Procs.cpuSeconds(daemon.pid()) - daemonCpu0) / seconds * 100;
    double labsCpuPct = (labsCpu(labs) - labsCpu0) / seconds * 100;
    rss.add(Procs.rssMb(daemon.pid()));
    double[] heap = Procs.heapMb(c.options.daemonJavaHome(), daemon.pid());
    int size = labs.size();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("rss_mb_median", Stats.round(Stats.median(rss), 1));
    m.put("rss_mb_max", Stats.round(Stats.max(rss), 1));
    m.put("rss_mb_per_target", Stats.round(Stats.median(rss) / size, 2));
    m.put("heap_used_mb", heap.length == 2 ? Stats.round(heap[0], 1) : null);
    m.put("heap_committed_mb", heap.length == 2 ? Stats.round(heap[1], 1) : null);
    m.put("daemon_threads_median", Stats.round(Stats.median(threads), 0));
    m.put("daemon_cpu_pct_of_core", Stats.round(daemonCpu, 2));
    m.put("daemon_cpu_pct_per_target", Stats.round(daemonCpu / size, 3));
    m.put("labs_cpu_pct_of_core_total", Stats.round(labsCpuPct, 1));
    m.put("load_1m_median", Stats.round(Stats.median(load), 2));
    m.put("load_1m_max", Stats.round(Stats.max(load), 2));
    m.put("jfr_lag_current_s_p50", Stats.round(Stats.median(lags), 3));
    m.put("jfr_lag_current_s_p99", Stats.round(Stats.percentile(lags, 99), 3));
    m.put("jfr_lag_current_samples", lags.size());
    m.put("jfr_lag_timer_max_s", Stats.round(lagMax, 3));
    m.put("metrics_every_15s_ms", paced.stream().map(ms -> Stats.round(ms, 1)).toList());
    return m;
  }

  private static double labsCpu(List<LabProcess> labs) {
    double sum = 0;
    for (LabProcess lab : labs) {
      try {
        sum += Procs.cpuSeconds(lab.pid());
      } catch (IOException e) {
        // A lab that exited counts no more.
      }
    }
    return sum;
  }

  private static Map<String, Object> scrapeLatency(BenchContext c, DaemonProcess daemon, int n)
      throws Exception {
    BackToBackScrapes scrapes = BackToBackScrapes.run(c, daemon, 10, n);
    List<Double> millis = scrapes.millis();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metrics_body_kb", Stats.round(scrapes.bodyBytes() / 1024.0, 1));
    m.put("metrics_p50_ms", Stats.round(Stats.percentile(millis, 50), 2));
    m.put("metrics_p99_ms", Stats.round(Stats.percentile(millis, 99), 2));
    m.put("metrics_max_ms", Stats.round(Stats.max(millis), 2));
    m.put("metrics_scrapes", millis.size());
    m.put("metrics_daemon_cpu_ms_per_scrape", Stats.round(scrapes.daemonCpuMsPerScrape(), 2));
    m.put("load_1m_after_scrapes", Machine.loadAverage().get("1m"));
    return m;
  }

  /**
   * One quiet target is replaced by a lab that storms after {@link #STORM_DELAY}; the storm lab is
   * stopped afterwards (the caller starts a quiet one in its place).
   */
  private static Map<String, Object> storm(BenchContext c, DaemonProcess daemon, Fleet fleet)
      throws Exception {
    fleet.stopOneQuiet();
    List<LabEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    Map<String, Object> m = new LinkedHashMap<>();
    try (LabProcess storm = fleet.startStorm(STORM_RATE, STORM_DELAY, events)) {
      String name = Fleet.targetName(storm);
      long started = System.nanoTime();
      List<LabProcess> watched = new ArrayList<>(fleet.quiet());
      watched.add(storm);
      awaitWatched(c, daemon, watched, STORM_DELAY.plusSeconds(60));
      double streamingAfter = (System.nanoTime() - started) / 1e9;
      LabEvent onset = storm.awaitOnset("storm", Duration.ofSeconds(120));
      m.put("storm_target_streaming_after_s", Stats.round(streamingAfter, 1));
      m.put("storm_streaming_before_onset", streamingAfter < STORM_DELAY.toSeconds());
      Optional<Double> latency =
          daemon
              .awaitFiring(c, "ThreadStorm", Optional.of(name), Duration.ofSeconds(60))
              .map(since -> (since.toEpochMilli() - onset.atEpochMillis()) / 1000.0);
      m.put("storm_detection_s", latency.map(l -> Stats.round(l, 2)).orElse(null));
      c.log("fleet: storm in %s detected after %s s", name, latency.orElse(null));
    }
    return m;
  }

  private static void summarise(Result result, Map<String, Object> m) {
    result.line(
        "%2d target(s): RSS %s MB (max %s, %s MB/target), heap %s/%s MB, %s threads; daemon CPU"
            + " %s%% of a core (%s%%/target); labs %s%% of a core in all; load %s (max %s)",
        m.get("targets"),
        m.get("rss_mb_median"),
        m.get("rss_mb_max"),
        m.get("rss_mb_per_target"),
        m.get("heap_used_mb"),
        m.get("heap_committed_mb"),
        m.get("daemon_threads_median"),
        m.get("daemon_cpu_pct_of_core"),
        m.get("daemon_cpu_pct_per_target"),
        m.get("labs_cpu_pct_of_core_total"),
        m.get("load_1m_median"),
        m.get("load_1m_max"));
    result.line(
        "    /metrics %s KB p50 %s ms p99 %s ms max %s ms (%s ms daemon CPU/scrape); JFR lag now"
            + " p50 %s s p99 %s s (timer max %s s); storm detected after %s s (target streaming"
            + " %s s after start); up and streaming %s s after growing; scrapes every 15 s took"
            + " %s ms",
        m.get("metrics_body_kb"),
        m.get("metrics_p50_ms"),
        m.get("metrics_p99_ms"),
        m.get("metrics_max_ms"),
        m.get("metrics_daemon_cpu_ms_per_scrape"),
        m.get("jfr_lag_current_s_p50"),
        m.get("jfr_lag_current_s_p99"),
        m.get("jfr_lag_timer_max_s"),
        m.get("storm_detection_s"),
        m.get("storm_target_streaming_after_s"),
        m.get("grow_until_all_streaming_s"),
        m.get("metrics_every_15s_ms"));
  }

  private static void check(Result result, Map<String, Object> m) {
    int n = (Integer) m.get("targets");
    double rss = (Double) m.get("rss_mb_max");
    double cpu = (Double) m.get("daemon_cpu_pct_of_core");
    double p99 = (Double) m.get("metrics_p99_ms");
    Double storm = (Double) m.get("storm_detection_s");
    result.target("daemon RSS, " + n + " targets", "<= 512 MB", rss + " MB (max)", rss <= 512);
    result.target(
        "daemon CPU at steady state, " + n + " targets",
        "<= 25% of one core",
        cpu + "%",
        cpu <= 25);
    result.target("/metrics p99, " + n + " targets", "<= 50 ms", p99 + " ms", p99 <= 50);
    result.target(
        "storm in one of " + n + " detected",
        "<= 10 s",
        storm == null ? "not fired in 60 s" : storm + " s",
        storm != null && storm <= 10);
  }
}
