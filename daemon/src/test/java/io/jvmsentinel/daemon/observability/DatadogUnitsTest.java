package io.jvmsentinel.daemon.observability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.collectors.catalog.MeterKind;
import io.jvmsentinel.daemon.catalog.Catalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every Datadog widget and monitor reads what the DogStatsD export really sends (Datapoints): a
 * timer arrives as {@code .count} and {@code .sum} counts and a {@code .max} gauge, all in seconds;
 * counters arrive as counts, read with {@code .as_rate()} or {@code .as_count()}; gauges as they
 * are. The unit each formula yields is worked out from the catalog and must match the unit the
 * widget declares and the one its title names: a "(ms)" title over seconds fails here.
 */
class DatadogUnitsTest {
  /** {@code max:jvm.gc.pause.max{$target} by {target}.as_rate()}. */
  private static final Pattern QUERY =
      Pattern.compile(
          "\\b(?:avg|sum|min|max|count):([a-zA-Z_][a-zA-Z0-9_.]*)\\s*\\{[^}]*}"
              + "(?:\\s*by\\s*\\{[^}]*})?(\\.as_rate\\(\\)|\\.as_count\\(\\))?");

  private static final Pattern SINGLE = Pattern.compile("q(\\d+)");
  private static final Pattern TO_MILLIS = Pattern.compile("q(\\d+) \\* 1000");
  private static final Pattern TO_DAYS = Pattern.compile("q(\\d+) / 86400");
  private static final Pattern RATIO = Pattern.compile("q(\\d+) / q(\\d+)");
  private static final Pattern SHARE_OF_NANOS =
      Pattern.compile("q(\\d+) / \\(q(\\d+) / 1000000000\\)");

  private static final Set<String> TIME_UNITS =
      Set.of("nanosecond", "millisecond", "second", "day");
  private static final Map<String, String> TITLE_UNITS =
      Map.of("(ms)", "millisecond", "(s)", "second", "(days", "day");

  /** What one sent metric is: a count or a gauge, and its Datadog unit (null: a plain number). */
  private record Sent(boolean count, String unit) {}

  /** A Datadog unit, optionally per another (bytes per second). */
  private record Unit(String name, String per) {
    static final Unit NONE = new Unit(null, null);
    static final Unit FRACTION = new Unit("fraction", null);
  }

  @Test
  void everyDashboardFormulaDeclaresTheUnitTheExporterSends() {
    List<String> problems = new ArrayList<>();
    int formulas = 0;
    for (JsonNode widget :
        widgets(ObservabilityFiles.read(ObservabilityFiles.datadogDashboard()))) {
      String title = widget.path("title").asText();
      for (JsonNode request : widget.path("requests")) {
        Map<String, Unit> queries = new HashMap<>();
        Set<String> texts = new java.util.HashSet<>();
        for (JsonNode query : request.path("queries")) {
          if (!texts.add(query.path("query").asText())) {
            problems.add(title + ": plots " + query.path("query").asText() + " twice");
          }
          queries.put(
              query.path("name").asText(), unitOf(query.path("query").asText(), problems, title));
        }
        for (JsonNode formula : request.path("formulas")) {
          formulas++;
          String where = title + ": " + formula.path("formula").asText();
          Unit expected = formulaUnit(formula.path("formula").asText(), queries, problems, where);
          JsonNode declared = formula.path("number_format").path("unit");
          if (declared.isMissingNode()) {
            if (expected.name() != null && TIME_UNITS.contains(expected.name())) {
              problems.add(where + ": yields " + expected + " but declares no number_format unit");
            }
          } else {
            Unit got =
                new Unit(
                    declared.path("unit_name").asText(null),
                    declared.path("per_unit_name").asText(null));
            if (!got.equals(expected)) {
              problems.add(where + ": declares " + got + " but the exporter sends " + expected);
            }
          }
          TITLE_UNITS.forEach(
              (inTitle, unit) -> {
                if (title.contains(inTitle) && !unit.equals(expected.name())) {
                  problems.add(where + ": title says " + inTitle + " but it yields " + expected);
                }
              });
        }
      }
    }
    assertThat(formulas).as("formulas in the Datadog dashboard").isGreaterThan(20);
    assertThat(problems).isEmpty();
  }

  @Test
  void everyMonitorQueryReadsSentMetricsTheWayTheyAreSent() {
    List<String> problems = new ArrayList<>();
    for (JsonNode monitor : ObservabilityFiles.datadogMonitors()) {
      if (monitor.path("type").asText().equals("query alert")) {
        unitOf(monitor.path("query").asText(), problems, monitor.path("name").asText());
      }
    }
    assertThat(problems).isEmpty();
  }

  /** ZGC and Shenandoah count concurrent cycles in collection time: overhead is pause time. */
  @Test
  void gcOverheadIsPauseTimeInTheDashboardAndTheMonitor() {
    Map<String, String> overhead = new LinkedHashMap<>();
    ObservabilityFiles.datadogQueries()
        .forEach(
            (where, query) -> {
              if (where.toLowerCase(java.util.Locale.ROOT).contains("gc overhead")) {
                overhead.put(where, query);
              }
            });
    assertThat(overhead).hasSize(2);
    assertThat(overhead.values())
        .allSatisfy(q -> assertThat(q).contains("jvm.gc.pause.sum").doesNotContain("collection"));
  }

  /**
   * new_group_delay only covers a target Datadog has never seen; a restarted target keeps its group
   * and would page during warm-up. The query itself drops the first 3 minutes of uptime.
   */
  @Test
  void jitMonitorsSkipWarmUpAfterEveryStart() {
    int jit = 0;
    for (JsonNode monitor : ObservabilityFiles.datadogMonitors()) {
      String message = monitor.path("message").asText();
      boolean jitRule =
          message.contains("runbooks/CompilerCpuHigh.md")
              || message.contains("runbooks/DeoptimizationStorm.md")
              || message.contains("runbooks/CodeCacheChurn.md")
              || message.contains("runbooks/ClassLoaderChurn.md");
      if (jitRule && monitor.path("type").asText().equals("query alert")) {
        jit++;
        assertThat(monitor.path("query").asText())
            .as(monitor.path("name").asText())
            .contains("clamp_max(cutoff_min(max:process.uptime{*} by {target}, 180), 1)");
      }
    }
    assertThat(jit).isEqualTo(4);
  }

  private static Unit unitOf(String query, List<String> problems, String where) {
    Matcher m = QUERY.matcher(query);
    Unit unit = null;
    while (m.find()) {
      Sent sent = SENT.get(m.group(1));
      if (sent == null) {
        problems.add(where + ": " + m.group(1) + " is not sent (see docs/dashboards.md)");
        continue;
      }
      String modifier = m.group(2);
      if (sent.count() && modifier == null) {
        problems.add(where + ": " + m.group(1) + " is a count: read it .as_rate() or .as_count()");
      } else if (!sent.count() && modifier != null) {
        problems.add(where + ": " + m.group(1) + " is a gauge: " + modifier + " means nothing");
      }
      Unit here =
          ".as_rate()".equals(modifier)
              ? perSecond(sent.unit() == null ? "event" : sent.unit())
              : new Unit(sent.count() && sent.unit() == null ? "event" : sent.unit(), null);
      unit = unit == null ? here : unit;
    }
    if (unit == null) {
      problems.add(where + ": no metric in " + query);
      return Unit.NONE;
    }
    return unit;
  }

  private static Unit perSecond(String unit) {
    return unit.equals("second") ? Unit.FRACTION : new Unit(unit, "second");
  }

  private static Unit formulaUnit(
      String formula, Map<String, Unit> queries, List<String> problems, String where) {
    Matcher m;
    if ((m = SINGLE.matcher(formula)).matches()) {
      return queries.get(formula);
    }
    if ((m = TO_MILLIS.matcher(formula)).matches()) {
      return scaled(queries.get("q" + m.group(1)), "millisecond", problems, where);
    }
    if ((m = TO_DAYS.matcher(formula)).matches()) {
      return scaled(queries.get("q" + m.group(1)), "day", problems, where);
    }
    if ((m = SHARE_OF_NANOS.matcher(formula)).matches()) {
      Unit a = queries.get("q" + m.group(1));
      Unit b = queries.get("q" + m.group(2));
      if (!a.equals(Unit.FRACTION) || !b.equals(new Unit("nanosecond", "second"))) {
        problems.add(where + ": divides " + a + " by " + b + " as if seconds/s over ns/s");
      }
      return Unit.FRACTION;
    }
    if ((m = RATIO.matcher(formula)).matches()) {
      Unit a = queries.get("q" + m.group(1));
      Unit b = queries.get("q" + m.group(2));
      if (a.equals(b)) {
        return Unit.FRACTION;
      }
      if ("event".equals(b.name()) && java.util.Objects.equals(a.per(), b.per())) {
        return new Unit(a.name(), null); // sum / count: the mean
      }
      if (a.equals(Unit.FRACTION) && "event".equals(b.name())) {
        return new Unit("second", null); // seconds per second over events per second
      }
      problems.add(where + ": cannot divide " + a + " by " + b);
      return Unit.NONE;
    }
    problems.add(where + ": a formula DatadogUnitsTest does not know; teach it");
    return Unit.NONE;
  }

  private static Unit scaled(Unit from, String to, List<String> problems, String where) {
    if (!"second".equals(from.name()) || from.per() != null) {
      problems.add(where + ": scales " + from + " as if it were seconds");
    }
    return new Unit(to, null);
  }

  private static final Map<String, Sent> SENT = sentMetrics();

  /** Every name DogStatsdPublisher sends, from the catalog, with what it is. */
  private static Map<String, Sent> sentMetrics() {
    Map<String, Sent> sent = new HashMap<>();
    for (MeterDefinition metric : Catalog.everyMeter()) {
      String unit = datadogUnit(metric.baseUnit());
      if (metric.kind() == MeterKind.TIMER) {
        sent.put(metric.meterName() + ".count", new Sent(true, "event"));
        sent.put(metric.meterName() + ".sum", new Sent(true, unit));
        sent.put(metric.meterName() + ".max", new Sent(false, unit));
      } else {
        sent.put(metric.meterName(), new Sent(metric.kind() == MeterKind.COUNTER, unit));
      }
    }
    return sent;
  }

  private static String datadogUnit(String baseUnit) {
    if (baseUnit == null) {
      return null;
    }
    return switch (baseUnit) {
      case "seconds" -> "second";
      case "milliseconds", "ms" -> "millisecond";
      case "ns" -> "nanosecond";
      case "bytes" -> "byte";
      case "threads" -> "thread";
      case "classes" -> "item";
      default -> baseUnit;
    };
  }

  private static List<JsonNode> widgets(JsonNode dashboard) {
    List<JsonNode> out = new ArrayList<>();
    collect(dashboard.path("widgets"), out);
    return out;
  }

  private static void collect(JsonNode widgets, List<JsonNode> into) {
    for (JsonNode widget : widgets) {
      JsonNode definition = widget.path("definition");
      into.add(definition);
      collect(definition.path("widgets"), into);
    }
  }
}
