package io.jvmsentinel.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Item 4 of issue 7: how many storm events per second the daemon's stream thread parses, handles in
 * full and sheds, through {@code bench/event-capacity.sh} (a recorded storm replayed through the
 * daemon's handlers; method there and in docs/performance.md). An upper bound for a live stream,
 * which also downloads chunks; that a live overload stays bounded and counted is shown by {@code
 * OverloadIT}.
 */
final class EventCapacitySection implements BenchSection {

  @Override
  public String name() {
    return "events";
  }

  @Override
  public Result run(BenchContext c) throws Exception {
    int recordSeconds = c.pick(5, 20);
    int passes = c.options.rounds().orElse(c.pick(1, 5));
    Map<String, Map<String, Object>> medians =
        BenchScript.run(
            c,
            "bench/event-capacity.sh",
            Duration.ofMinutes(10),
            List.of(String.valueOf(recordSeconds), String.valueOf(passes), "10000"));
    Result result = new Result();
    result.put("settings", Map.of("record_s", recordSeconds, "passes", passes, "rate", 10000));
    result.put("medians", medians);
    medians.forEach(
        (mode, m) ->
            result.line(
                "%-5s %,10.0f events/s (median of %d passes)",
                mode, BenchScript.number(m, "events_per_s"), passes));
    double full = BenchScript.number(medians.get("full"), "events_per_s");
    result.target(
        "JFR events handled in full per second",
        ">= 50,000/s, lag p99 <= 3 s",
        String.format(
            "%,.0f/s replayed offline (upper bound of a live stream; live, the storm section's"
                + " ~20,000 events/s are handled with lag under 2 s)",
            full),
        full >= 50_000 ? null : Boolean.FALSE);
    return result;
  }
}
