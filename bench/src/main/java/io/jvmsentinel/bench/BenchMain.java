package io.jvmsentinel.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The benchmark runner of issue 7 (started by {@code bench/run}): runs every section, writes {@code
 * bench-<time>[-quick].json} and a human summary {@code .txt} beside it, and prints the summary. A
 * section that fails is recorded as {@code {"error": ...}} and the others still run.
 */
public final class BenchMain {

  /** The one explicit list of sections, in run order. */
  static final List<BenchSection> SECTIONS =
      List.of(
          new OverheadSection(),
          new FootprintSection(),
          new DetectionSection(),
          new StormCostSection(),
          new EventCapacitySection(),
          new FleetScaleSection());

  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    Path work = Files.createTempDirectory("jvm-sentinel-bench");
    BenchContext context = new BenchContext(options, work);
    Instant started = Instant.now();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("schema", 1);
    json.put("mode", options.quick() ? "quick" : "full");
    json.put("started", started.toString());
    json.put("machine", Machine.describe(options));
    List<String> summary = new ArrayList<>();
    List<BenchSection.TargetCheck> targets = new ArrayList<>();
    summary.add(
        "jvm-sentinel benchmark ("
            + json.get("mode")
            + ") started "
            + started
            + " on "
            + Machine.oneLine(options));
    for (BenchSection section : SECTIONS) {
      boolean wanted =
          options.only().isEmpty()
              ? !section.onRequestOnly()
              : options.only().contains(section.name());
      if (!wanted) {
        continue;
      }
      context.log("section %s", section.name());
      summary.add("");
      summary.add("== " + section.name());
      try {
        BenchSection.Result result = section.run(context);
        json.put(section.name(), result.json);
        summary.addAll(result.summary);
        targets.addAll(result.targets);
      } catch (Exception | AssertionError e) {
        context.log("section %s failed: %s", section.name(), e);
        e.printStackTrace();
        json.put(section.name(), Map.of("error", String.valueOf(e)));
        summary.add("FAILED: " + e);
      }
    }
    json.put("targets", targets.stream().map(BenchSection.TargetCheck::toJson).toList());
    Map<String, Object> load = Machine.loadAverage();
    json.put("finished", Instant.now().toString());
    json.put("load_average_at_end", load);
    summary.add("");
    summary.add("== targets (issue 7)");
    for (BenchSection.TargetCheck t : targets) {
      summary.add(
          String.format(
              "%-9s %-48s goal %-22s measured %s",
              t.met() == null ? "n/a" : t.met() ? "MET" : "NOT MET",
              t.target(),
              t.goal(),
              t.measured()));
    }
    summary.add("");
    summary.add("load average at end: " + load);
    write(options, started, json, summary);
    deleteQuietly(work);
  }

  private static void write(
      BenchOptions options, Instant started, Map<String, Object> json, List<String> summary)
      throws IOException {
    Files.createDirectories(options.out());
    String stamp =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC)
            .format(started);
    String base = options.name() + "-" + stamp + (options.quick() ? "-quick" : "");
    Path jsonFile = options.out().resolve(base + ".json");
    Path textFile = options.out().resolve(base + ".txt");
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(jsonFile.toFile(), json);
    Files.writeString(textFile, String.join("\n", summary) + "\n");
    System.out.println(String.join("\n", summary));
    System.out.println();
    System.out.println("results: " + jsonFile);
    System.out.println("summary: " + textFile);
  }

  private static void deleteQuietly(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover temp directory is harmless.
    }
  }
}
