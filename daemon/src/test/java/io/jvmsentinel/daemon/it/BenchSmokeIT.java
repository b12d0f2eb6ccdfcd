package io.jvmsentinel.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A smoke run of the benchmark runner ({@code bench/run --quick}, issue 7): it must work in one
 * command and write every section with sane figures. The figures themselves are not judged here (a
 * 2-core CI machine shared with other builds is no benchmark machine); their shape and plausibility
 * are. It checks the bench tooling, not the daemon (every alert it sees is judged in the suite), so
 * it runs on demand, not in the default {@code ./mvnw verify}: {@code -Pbench-smoke} adds it (issue
 * 27; docs/performance.md has the command that runs it alone).
 */
class BenchSmokeIT {
  @TempDir Path out;

  @Test
  void theQuickBenchmarkWritesEverySectionWithSaneFigures() throws Exception {
    Path root = Path.of(System.getProperty("jvmsentinel.repoRoot", "..")).toAbsolutePath();
    Process run =
        new ProcessBuilder(root.resolve("bench/run").toString(), "--quick", "--out", out.toString())
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.resolve("run.log").toFile())
            .start();
    boolean finished = run.waitFor(8, TimeUnit.MINUTES);
    if (!finished) {
      run.destroyForcibly();
    }
    String log = Files.readString(out.resolve("run.log"));
    assertThat(finished).as("bench/run --quick finished in 8 minutes:\n" + log).isTrue();
    assertThat(run.exitValue()).as(log).isZero();

    List<Path> results;
    try (Stream<Path> files = Files.list(out)) {
      results = files.filter(f -> f.toString().endsWith("-quick.json")).toList();
    }
    assertThat(results).as(log).hasSize(1);
    Path summary = Path.of(results.get(0).toString().replace(".json", ".txt"));
    assertThat(summary).exists();
    JsonNode json = new ObjectMapper().readTree(results.get(0).toFile());
    System.out.println(Files.readString(summary));

    assertThat(json.path("mode").asText()).isEqualTo("quick");
    assertThat(json.path("machine").path("cpus").asInt()).isPositive();
    for (String section : List.of("overhead", "footprint", "detection", "storm", "events")) {
      assertThat(json.has(section)).as(section).isTrue();
      assertThat(json.path(section).has("error")).as(section + ": " + json.path(section)).isFalse();
    }

    JsonNode throughput = json.path("overhead").path("throughput");
    for (String mode : List.of("none", "sentinel-default", "jmx-exporter")) {
      assertThat(throughput.path(mode).path("ops_per_s").path("median").asDouble())
          .as("ops/s of " + mode)
          .isPositive();
      assertThat(throughput.path(mode).path("ratio_to_none").path("median").asDouble())
          .as("throughput ratio of " + mode)
          .isBetween(0.01, 100.0);
    }
    JsonNode targetCpu = json.path("overhead").path("target_cpu");
    assertThat(targetCpu.path("jmx-exporter").path("extra_cpu_ms_per_scrape").path("n").asInt())
        .as("jmx_exporter was scraped")
        .isPositive();

    JsonNode one = json.path("footprint").path("targets_1");
    assertThat(one.path("rss_mb_max").asDouble()).isBetween(16.0, 1024.0);
    assertThat(one.path("heap_used_mb").asDouble()).isBetween(0.5, 512.0);
    assertThat(one.path("cpu_s_per_min").asDouble()).isBetween(0.0, 120.0);
    JsonNode latency = one.path("metrics_latency_ms");
    assertThat(latency.path("n").asInt()).isEqualTo(300);
    assertThat(latency.path("p50").asDouble()).isPositive();
    assertThat(latency.path("p99").asDouble())
        .isGreaterThanOrEqualTo(latency.path("p50").asDouble());
    assertThat(one.path("metrics_body_kb").asDouble()).isPositive();

    JsonNode storm = json.path("detection").path("scenarios").path("thread-per-request");
    assertThat(storm.path("rule").asText()).isEqualTo("ThreadStorm");
    assertThat(storm.path("fired").asInt()).as("ThreadStorm fired: " + storm).isEqualTo(1);
    assertThat(storm.path("latency_s").path("median").asDouble()).isBetween(0.0, 60.0);
    // scrape interval 15 s (deploy/compose) + `for: 1m` of JvmThreadStorm
    assertThat(storm.path("prometheus_lower_bound_s").asDouble()).isEqualTo(75.0);

    JsonNode stormCost = json.path("storm").path("medians");
    assertThat(stormCost.path("none").path("starts_per_s").asDouble())
        .as("the lab stormed: " + stormCost)
        .isGreaterThan(500.0);
    assertThat(stormCost.path("default").path("ratio_to_none").asDouble())
        .as("storm throughput ratio at default settings")
        .isBetween(0.01, 100.0);
    assertThat(stormCost.path("default").path("cpu_per_start_ratio").asDouble())
        .as("target CPU per thread start, ratio to none")
        .isBetween(0.01, 100.0);
    assertThat(stormCost.path("default").path("daemon_rss_mb").asDouble()).isBetween(16.0, 1024.0);
    JsonNode events = json.path("events").path("medians");
    for (String mode : List.of("parse", "full", "shed")) {
      assertThat(events.path(mode).path("events_per_s").asDouble())
          .as("events/s replayed, " + mode)
          .isPositive();
    }

    assertThat(json.path("targets").size()).isGreaterThanOrEqualTo(7);
    for (JsonNode target : json.path("targets")) {
      assertThat(target.path("measured").asText()).isNotBlank();
    }
  }
}
