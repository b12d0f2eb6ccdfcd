package io.jvmsentinel.bench;

import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Item 1 of issue 7: what watching costs the target, in two measurements.
 *
 * <ol>
 *   <li><b>Throughput</b>: the lab's {@code bench} workload (2 workers saturating the machine's 2
 *       cores with CPU work, allocation and TLS requests) in interleaved rounds, one fresh target
 *       JVM per mode and round, the mode order rotated every round. A monitor's CPU on the target
 *       (and on the shared cores) shows up as fewer ops/s. Reported per mode as the ratio to no
 *       monitor in the same round: median, min and max over rounds.
 *   <li><b>Target CPU</b>: a saturated target's CPU time cannot grow, so the CPU a monitor costs
 *       the target is measured on idle targets (the lab's {@code idle} scenario), one per mode, all
 *       at once: utime+stime from {@code /proc/<pid>/stat} over the window, minus the unmonitored
 *       target's, per minute and per Prometheus scrape.
 * </ol>
 *
 * Every monitor with an endpoint is scraped at the Prometheus interval throughout.
 */
final class OverheadSection implements BenchSection {

  /** A way of watching the target. */
  record Mode(String name, String description, Starter starter) {}

  interface Starter {
    DaemonProcess start(BenchContext context, LabProcess lab) throws Exception;
  }

  /** The modes of a --quick run: enough to exercise each kind of monitor. */
  static final List<String> QUICK_MODES = List.of("none", "sentinel-default", "jmx-exporter");

  static final List<Mode> MODES =
      List.of(
          new Mode("none", "no monitor", (c, lab) -> null),
          new Mode(
              "sentinel-default",
              "jvm-sentinel, default settings (pollInterval 10s, JFR stream, detection)",
              (c, lab) -> c.startDaemon("default", targetYaml(lab, ""))),
          new Mode(
              "sentinel-all",
              "jvm-sentinel, every collector on and polled at the minimum interval (pollInterval 1s)",
              (c, lab) -> c.startDaemon("all", targetYaml(lab, "    pollInterval: 1s\n"))),
          new Mode(
              "sentinel-jmx-only",
              "jvm-sentinel without its JFR stream (jfr.enabled false): JMX polling only",
              (c, lab) ->
                  c.startDaemon("jmx-only", "jfr:\n  enabled: false\n" + targetYaml(lab, ""))),
          new Mode(
              "jmx-exporter",
              "jmx_exporter standalone 1.x (collector 1.7.0), catch-all rule, remote JMX",
              (c, lab) -> c.startJmxExporter(lab.jmxHostPort())));

  /** Bench workload heap: fixed, so GC behaviour does not depend on the machine's memory. */
  private static final List<String> BENCH_HEAP = List.of("-Xms256m", "-Xmx256m");

  @Override
  public String name() {
    return "overhead";
  }

  static String targetYaml(LabProcess lab, String extra) {
    return "targets:\n  - name: target\n    jmx: " + lab.jmxHostPort() + "\n" + extra;
  }

  @Override
  public Result run(BenchContext c) throws Exception {
    List<Mode> modes =
        MODES.stream()
            .filter(
                m -> !m.name().equals("jmx-exporter") || c.options.exporterClasspath().isPresent())
            .filter(m -> !c.quick() || QUICK_MODES.contains(m.name()))
            .toList();
    int rounds = c.options.rounds().orElse(c.pick(1, 3));
    Duration warmup = c.pick(Duration.ofSeconds(4), Duration.ofSeconds(15));
    Duration measure = c.pick(Duration.ofSeconds(6), Duration.ofSeconds(30));
    Duration scrapeInterval = c.pick(Duration.ofSeconds(5), Duration.ofSeconds(15));
    Result result = new Result();
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("rounds", rounds);
    settings.put("warmup_s", warmup.toSeconds());
    settings.put("measure_s", measure.toSeconds());
    settings.put("scrape_interval_s", scrapeInterval.toSeconds());
    settings.put("workload", "lab bench --threads 2, " + String.join(" ", BENCH_HEAP));
    result.put("settings", settings);
    Map<String, String> descriptions = new LinkedHashMap<>();
    modes.forEach(m -> descriptions.put(m.name(), m.description()));
    result.put("modes", descriptions);

    // 1. Throughput, interleaved.
    Map<String, List<Double>> opsPerSecond = new LinkedHashMap<>();
    Map<String, List<Double>> monitorCpu = new LinkedHashMap<>();
    Map<String, List<Double>> opsPerCpu = new LinkedHashMap<>();
    modes.forEach(m -> opsPerCpu.put(m.name(), new ArrayList<>()));
    modes.forEach(m -> opsPerSecond.put(m.name(), new ArrayList<>()));
    modes.forEach(m -> monitorCpu.put(m.name(), new ArrayList<>()));
    List<Map<String, Object>> raw = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < modes.size(); i++) {
        Mode mode = modes.get((i + round) % modes.size());
        Map<String, Object> sample = throughput(c, mode, warmup, measure, scrapeInterval);
        sample.put("round", round);
        raw.add(sample);
        opsPerSecond.get(mode.name()).add((Double) sample.get("ops_per_s"));
        opsPerCpu.get(mode.name()).add((Double) sample.get("ops_per_target_cpu_s"));
        if (sample.get("monitor_cpu_s_per_min") != null) {
          monitorCpu.get(mode.name()).add((Double) sample.get("monitor_cpu_s_per_min"));
        }
        c.log("overhead round %d %s: %s", round, mode.name(), sample);
      }
    }
    Map<String, Object> throughput = new LinkedHashMap<>();
    List<Double> baseline = opsPerSecond.get("none");
    result.line(
        "throughput of the bench workload, ratio to no monitor in the same round (%d rounds, %d s"
            + " each):",
        rounds, measure.toSeconds());
    for (Mode mode : modes) {
      List<Double> ops = opsPerSecond.get(mode.name());
      List<Double> ratios = new ArrayList<>();
      for (int r = 0; r < ops.size(); r++) {
        ratios.add(ops.get(r) / baseline.get(r));
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("ops_per_s", Stats.summary(ops, 1));
      m.put("ratio_to_none", Stats.summary(ratios, 4));
      m.put("overhead_pct_median", Stats.round((1 - Stats.median(ratios)) * 100, 2));
      List<Double> cpuRatios = ratios(opsPerCpu, mode.name());
      m.put("ops_per_target_cpu_s_ratio_to_none", Stats.summary(cpuRatios, 4));
      m.put("monitor_cpu_s_per_min", Stats.summary(monitorCpu.get(mode.name()), 2));
      throughput.put(mode.name(), m);
      result.line(
          "  %-18s %8.1f ops/s  ratio median %.4f (min %.4f, max %.4f)  ops per target CPU s"
              + " ratio %.4f  monitor CPU %.2f s/min",
          mode.name(),
          Stats.median(ops),
          Stats.median(ratios),
          Stats.min(ratios),
          Stats.max(ratios),
          Stats.median(ratios(opsPerCpu, mode.name())),
          mode.name().equals("none") ? 0.0 : Stats.median(monitorCpu.get(mode.name())));
    }
    List<Double> noneSpread = new ArrayList<>();
    for (double ops : baseline) {
      noneSpread.add(ops / Stats.median(baseline));
    }
    throughput.put(
        "baseline_spread_pct",
        Stats.round((Stats.max(noneSpread) - Stats.min(noneSpread)) * 100, 2));
    result.put("throughput", throughput);
    result.put("throughput_raw", raw);
    result.line(
        "  (no-monitor rounds spread over %.1f%% of their median: differences below that are noise)",
        (Stats.max(noneSpread) - Stats.min(noneSpread)) * 100);

    // 2. Target CPU on idle targets, all modes at once.
    Duration cpuWarmup = c.pick(Duration.ofSeconds(4), Duration.ofSeconds(15));
    Duration cpuWindow = c.pick(Duration.ofSeconds(10), Duration.ofSeconds(45));
    Map<String, List<Double>> extraPerMin = new LinkedHashMap<>();
    Map<String, List<Double>> perScrape = new LinkedHashMap<>();
    modes.forEach(m -> extraPerMin.put(m.name(), new ArrayList<>()));
    modes.forEach(m -> perScrape.put(m.name(), new ArrayList<>()));
    List<Map<String, Object>> cpuRaw = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      Map<String, double[]> cpu = idleCpu(c, modes, cpuWarmup, cpuWindow, scrapeInterval);
      double none = cpu.get("none")[0];
      for (Mode mode : modes) {
        double[] v = cpu.get(mode.name());
        double extra = (v[0] - none) * 60 / cpuWindow.toSeconds();
        extraPerMin.get(mode.name()).add(extra);
        if (v[1] > 0) {
          perScrape.get(mode.name()).add((v[0] - none) / v[1] * 1000);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("round", round);
        s.put("mode", mode.name());
        s.put("target_cpu_s", Stats.round(v[0], 3));
        s.put("scrapes", (int) v[1]);
        cpuRaw.add(s);
      }
    }
    Map<String, Object> targetCpu = new LinkedHashMap<>();
    targetCpu.put("window_s", cpuWindow.toSeconds());
    result.line(
        "target CPU on an idle target, extra over no monitor (%d rounds, %d s windows, scrapes"
            + " every %d s):",
        rounds, cpuWindow.toSeconds(), scrapeInterval.toSeconds());
    for (Mode mode : modes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("extra_cpu_s_per_min", Stats.summary(extraPerMin.get(mode.name()), 3));
      m.put("extra_cpu_ms_per_scrape", Stats.summary(perScrape.get(mode.name()), 1));
      targetCpu.put(mode.name(), m);
      if (!mode.name().equals("none")) {
        result.line(
            "  %-18s %+7.3f CPU s/min (%.3f%% of a core)  %7.1f ms per scrape",
            mode.name(),
            Stats.median(extraPerMin.get(mode.name())),
            Stats.median(extraPerMin.get(mode.name())) / 60 * 100,
            Stats.median(perScrape.get(mode.name())));
      }
    }
    result.put("target_cpu", targetCpu);
    result.put("target_cpu_raw", cpuRaw);

    List<Double> defaultRatios = ratios(opsPerSecond, "sentinel-default");
    double overhead = (1 - Stats.median(defaultRatios)) * 100;
    double perCpuOverhead = (1 - Stats.median(ratios(opsPerCpu, "sentinel-default"))) * 100;
    double spread = (Stats.max(noneSpread) - Stats.min(noneSpread)) * 100;
    result.target(
        "target throughput overhead, default settings",
        "<= 1% (goal 0.5%)",
        String.format(
            "%.2f%% ops/s, %.2f%% ops per target CPU s (median of %d rounds; no-monitor spread"
                + " %.1f%%)",
            overhead, perCpuOverhead, rounds, spread),
        // One short round right after the monitor's start-up says nothing about steady state.
        c.quick() ? null : overhead <= 1.0);
    if (perScrape.containsKey("jmx-exporter")) {
      double sentinel = Stats.median(perScrape.get("sentinel-default"));
      double exporter = Stats.median(perScrape.get("jmx-exporter"));
      result.target(
          "target CPU per scrape lower than jmx_exporter",
          "sentinel < jmx_exporter",
          String.format("%.1f ms vs %.1f ms", sentinel, exporter),
          sentinel < exporter);
    }
    return result;
  }

  private static List<Double> ratios(Map<String, List<Double>> ops, String mode) {
    List<Double> ratios = new ArrayList<>();
    for (int r = 0; r < ops.get(mode).size(); r++) {
      ratios.add(ops.get(mode).get(r) / ops.get("none").get(r));
    }
    return ratios;
  }

  private static Map<String, Object> throughput(
      BenchContext c, Mode mode, Duration warmup, Duration measure, Duration scrapeInterval)
      throws Exception {
    ConcurrentLinkedQueue<LabEvent> samples = new ConcurrentLinkedQueue<>();
    try (LabProcess lab =
        c.startLab(
            "bench",
            BENCH_HEAP,
            List.of(),
            e -> {
              if (e.type().equals("throughput")) {
                samples.add(e);
              }
            })) {
      DaemonProcess monitor = mode.starter().start(c, lab);
      try {
        BenchContext.sleep(warmup);
        Scraper scraper =
            monitor == null ? null : new Scraper(c, monitor.metricsUrl(), scrapeInterval);
        long t0 = System.currentTimeMillis();
        double cpu0 = Procs.cpuSeconds(lab.pid());
        double monitor0 = monitor == null ? 0 : Procs.cpuSeconds(monitor.pid());
        BenchContext.sleep(measure);
        long t1 = System.currentTimeMillis();
        double cpu1 = Procs.cpuSeconds(lab.pid());
        double monitor1 = monitor == null ? 0 : Procs.cpuSeconds(monitor.pid());
        if (scraper != null) {
          scraper.close();
        }
        long ops = 0;
        long millis = 0;
        for (LabEvent e : samples) {
          if (e.atEpochMillis() > t0 && e.atEpochMillis() <= t1) {
            ops += Long.parseLong(e.attribute("ops").orElse("0"));
            millis += Long.parseLong(e.attribute("interval_ms").orElse("0"));
          }
        }
        if (millis == 0) {
          throw new IllegalStateException("no throughput samples from the lab in the window");
        }
        double minutes = (t1 - t0) / 60_000.0;
        Map<String, Object> sample = new LinkedHashMap<>();
        sample.put("mode", mode.name());
        sample.put("ops_per_s", Stats.round(ops * 1000.0 / millis, 2));
        sample.put("target_cpu_s_per_min", Stats.round((cpu1 - cpu0) / minutes, 2));
        // Work per CPU second of the target: other load on the machine takes cores away (fewer
        // ops and fewer CPU seconds alike), while monitoring work inside the target costs CPU
        // seconds that do no ops. Less sensitive to a busy shared machine than ops/s.
        sample.put(
            "ops_per_target_cpu_s",
            Stats.round(ops * (t1 - t0) / (double) millis / (cpu1 - cpu0), 2));
        sample.put(
            "monitor_cpu_s_per_min",
            monitor == null ? null : Stats.round((monitor1 - monitor0) / minutes, 3));
        sample.put("scrapes", scraper == null ? 0 : scraper.scrapes());
        sample.put("load_1m", Machine.loadAverage().get("1m"));
        return sample;
      } finally {
        if (monitor != null) {
          monitor.close();
        }
      }
    }
  }

  /** Per mode: {target CPU seconds in the window, scrapes in the window}. */
  private static Map<String, double[]> idleCpu(
      BenchContext c, List<Mode> modes, Duration warmup, Duration window, Duration scrapeInterval)
      throws Exception {
    List<LabProcess> labs = new ArrayList<>();
    List<DaemonProcess> monitors = new ArrayList<>();
    List<Scraper> scrapers = new ArrayList<>();
    try {
      for (Mode mode : modes) {
        LabProcess lab = c.startLab("idle", List.of("-Xmx64m"), List.of(), e -> {});
        labs.add(lab);
        monitors.add(mode.starter().start(c, lab));
      }
      BenchContext.sleep(warmup);
      double[] start = new double[modes.size()];
      for (int i = 0; i < modes.size(); i++) {
        DaemonProcess monitor = monitors.get(i);
        scrapers.add(monitor == null ? null : new Scraper(c, monitor.metricsUrl(), scrapeInterval));
        start[i] = Procs.cpuSeconds(labs.get(i).pid());
      }
      BenchContext.sleep(window);
      Map<String, double[]> cpu = new LinkedHashMap<>();
      for (int i = 0; i < modes.size(); i++) {
        double used = Procs.cpuSeconds(labs.get(i).pid()) - start[i];
        Scraper scraper = scrapers.get(i);
        cpu.put(modes.get(i).name(), new double[] {used, scraper == null ? 0 : scraper.scrapes()});
      }
      return cpu;
    } finally {
      for (Scraper s : scrapers) {
        if (s != null) {
          s.close();
        }
      }
      for (DaemonProcess m : monitors) {
        if (m != null) {
          m.close();
        }
      }
      labs.forEach(LabProcess::close);
    }
  }
}
