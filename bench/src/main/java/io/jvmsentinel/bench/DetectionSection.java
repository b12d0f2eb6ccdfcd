package io.jvmsentinel.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jvmsentinel.daemon.config.Durations;
import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Item 5 of issue 7: time from a lab incident's onset (the lab's {@code LAB onset} line, epoch ms)
 * to the daemon's alert firing, over several runs per scenario, each with a fresh target and
 * daemon. The lab waits ({@code --delay}) until the daemon is connected and streaming, so the
 * figure is detection, not start-up. The daemon runs with default settings except the JIT rules'
 * warm-up (20 s, as in ScenarioSuiteIT: the default 3 minutes of target uptime would only delay the
 * JIT incidents). Alongside, the earliest a Prometheus rule from alerts/prometheus could fire: one
 * scrape interval (deploy/compose/prometheus.yml) plus the rule's {@code for:}.
 */
final class DetectionSection implements BenchSection {

  /** A lab incident, the phase that starts it, the rule that must fire and how long to wait. */
  record Incident(
      String scenario, List<String> args, String phase, String rule, Duration timeout) {}

  static final List<Incident> INCIDENTS =
      List.of(
          new Incident(
              "thread-per-request", List.of("--rate", "200"), "storm", "ThreadStorm", secs(60)),
          new Incident(
              "tls-listener-storm", List.of("--rate", "150"), "storm", "ThreadStorm", secs(60)),
          new Incident("codecache-full", List.of(), "full", "CodeCacheFull", secs(60)),
          new Incident("codecache-churn", List.of(), "churn", "CodeCacheChurn", secs(180)),
          new Incident("deopt-storm", List.of(), "deopt", "DeoptimizationStorm", secs(150)),
          new Incident("gc-pressure", List.of(), "gc", "GcOverhead", secs(120)));

  static final String DETECTION =
      """
      detection:
        warmup: 20s
        warmupMax: 30s
      """;

  @Override
  public String name() {
    return "detection";
  }

  private static Duration secs(long s) {
    return Duration.ofSeconds(s);
  }

  @Override
  public Result run(BenchContext c) throws Exception {
    Result result = new Result();
    int runs = c.options.rounds().orElse(c.pick(1, 3));
    List<Incident> incidents = c.quick() ? INCIDENTS.subList(0, 1) : INCIDENTS;
    Duration delay = c.pick(Duration.ofSeconds(8), Duration.ofSeconds(15));
    Duration scrapeInterval = scrapeInterval(c.options.root());
    Map<String, Duration> ruleFor = prometheusFor(c.options.root());
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("runs", runs);
    settings.put("lab_delay_s", delay.toSeconds());
    settings.put("daemon", "default settings, detection.warmup 20s / warmupMax 30s");
    settings.put("prometheus_scrape_interval_s", scrapeInterval.toSeconds());
    result.put("settings", settings);
    result.line(
        "onset to firing, median over %d run(s); Prometheus lower bound = scrape interval %d s +"
            + " the rule's for:",
        runs, scrapeInterval.toSeconds());
    Map<String, Object> scenarios = new LinkedHashMap<>();
    for (Incident incident : incidents) {
      List<Double> seconds = new ArrayList<>();
      List<Double> observed = new ArrayList<>();
      List<Object> raw = new ArrayList<>();
      for (int run = 0; run < runs; run++) {
        Optional<double[]> latency = once(c, incident, delay);
        raw.add(latency.map(l -> Stats.round(l[0], 2)).orElse(null));
        latency.ifPresent(l -> seconds.add(l[0]));
        latency.ifPresent(l -> observed.add(l[1]));
        c.log(
            "detection %s run %d: %s",
            incident.scenario(), run, latency.map(l -> l[0] + " s").orElse("not fired"));
      }
      Duration forDuration = ruleFor.get(incident.rule());
      Double bound =
          forDuration == null ? null : (double) scrapeInterval.plus(forDuration).toSeconds();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("rule", incident.rule());
      m.put("runs", runs);
      m.put("fired", seconds.size());
      m.put("latency_s", Stats.summary(seconds, 2));
      m.put("latency_s_runs", raw);
      m.put("observed_by_poll_s_median", Stats.round(Stats.median(observed), 2));
      m.put("prometheus_for_s", forDuration == null ? null : forDuration.toSeconds());
      m.put("prometheus_lower_bound_s", bound);
      scenarios.put(incident.scenario(), m);
      result.line(
          "  %-20s %-20s %s/%d fired, median %6.1f s (min %.1f, max %.1f)  Prometheus >= %s s",
          incident.scenario(),
          incident.rule(),
          seconds.size(),
          runs,
          Stats.median(seconds),
          Stats.min(seconds),
          Stats.max(seconds),
          bound == null ? "-" : String.format("%.0f", bound));
      if (incident.rule().equals("ThreadStorm") || incident.rule().equals("CodeCacheFull")) {
        double worst = seconds.size() < runs ? Double.POSITIVE_INFINITY : Stats.max(seconds);
        result.target(
            incident.rule() + " detected after onset (" + incident.scenario() + ")",
            "<= 10 s",
            String.format(
                "median %.1f s, max %s over %d run(s)",
                Stats.median(seconds),
                seconds.size() < runs ? "not fired" : String.format("%.1f s", worst),
                runs),
            worst <= 10);
      }
    }
    if (c.quick()) {
      result.line("  other scenarios: skipped in --quick");
    }
    result.put("scenarios", scenarios);
    return result;
  }

  /** {seconds from onset to the alert's firing time, seconds until this poll saw it}. */
  private static Optional<double[]> once(BenchContext c, Incident incident, Duration delay)
      throws Exception {
    List<String> args = new ArrayList<>(incident.args());
    args.addAll(List.of("--delay", delay.toMillis() + "ms"));
    try (LabProcess lab = c.startLab(incident.scenario(), List.of(), args, e -> {});
        DaemonProcess daemon =
            c.startDaemon(
                "detect-" + incident.scenario(),
                DETECTION + "targets:\n  - name: lab\n    jmx: " + lab.jmxHostPort() + "\n")) {
      LabEvent onset = lab.awaitOnset(incident.phase(), Duration.ofSeconds(120));
      long onsetAt = onset.atEpochMillis();
      Optional<Instant> since =
          daemon.awaitFiring(c, incident.rule(), Optional.empty(), incident.timeout());
      long now = System.currentTimeMillis();
      return since.map(
          s -> new double[] {(s.toEpochMilli() - onsetAt) / 1000.0, (now - onsetAt) / 1000.0});
    }
  }

  /** Per daemon rule id, the shortest {@code for:} among the Prometheus rules that mirror it. */
  static Map<String, Duration> prometheusFor(Path root) throws IOException {
    JsonNode rules = yamlTree(root.resolve("alerts/prometheus/jvm-sentinel-metrics.rules.yml"));
    Map<String, Duration> shortest = new LinkedHashMap<>();
    for (JsonNode group : rules.path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        String mirrors = rule.path("labels").path("rule").asText("");
        Duration forDuration = Durations.parse(rule.path("for").asText("0s"));
        shortest.merge(mirrors, forDuration, (a, b) -> a.compareTo(b) <= 0 ? a : b);
      }
    }
    return shortest;
  }

  /** The scrape interval of the shipped Prometheus configuration (deploy/compose). */
  static Duration scrapeInterval(Path root) throws IOException {
    JsonNode config = yamlTree(root.resolve("deploy/compose/prometheus.yml"));
    return Durations.parse(config.path("global").path("scrape_interval").asText("15s"));
  }

  /** A YAML file as a tree, read with the daemon's one YAML parser (snakeyaml-engine). */
  private static JsonNode yamlTree(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      Object document = new Load(LoadSettings.builder().build()).loadFromInputStream(in);
      return new ObjectMapper().valueToTree(document);
    }
  }
}
