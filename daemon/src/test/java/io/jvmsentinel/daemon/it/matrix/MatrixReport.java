package io.jvmsentinel.daemon.it.matrix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The matrix as measured: {@code scenario-matrix.json} for tools and {@code scenario-matrix.md}
 * (scenario, expected alerts, alerts raised with latency from onset and cause named, verdict) for
 * docs/alerts.md.
 */
public final class MatrixReport {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final int SUMMARY_CHARS = 110;

  private MatrixReport() {}

  public static void write(Path dir, Map<Row, List<Cell>> results, Instant started)
      throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("scenario-matrix.json"), json(results, started));
    Files.writeString(dir.resolve("scenario-matrix.md"), markdown(results, started));
  }

  static String json(Map<Row, List<Cell>> results, Instant started) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("started", started.toString());
    ArrayNode rows = root.putArray("rows");
    results.forEach(
        (row, cells) -> {
          ObjectNode r = rows.addObject();
          r.put("target", row.name());
          r.put("scenario", row.scenario());
          r.put("jdk", row.jdk());
          r.put("args", String.join(" ", row.args()));
          ArrayNode cellsJson = r.putArray("cells");
          for (Cell cell : cells) {
            ObjectNode c = cellsJson.addObject();
            c.put("rules", String.join(",", cell.expectation().rules()));
            c.put("kind", cell.expectation().kind().name());
            c.put("expected", cell.expectation().describe());
            c.put("passed", cell.passed());
            c.put("problem", cell.problem());
            ArrayNode firings = c.putArray("firings");
            for (Raised raised : cell.firings()) {
              ObjectNode f = firings.addObject();
              f.put("rule", raised.rule());
              f.put("startedAt", raised.startedAt().toString());
              cell.latencySeconds(raised).ifPresent(s -> f.put("latencySeconds", s));
              f.put("resolvedAt", raised.resolvedAt().map(Instant::toString).orElse(null));
              f.put("knownCause", raised.knownCause());
              f.put("summary", raised.summary());
            }
          }
        });
    return JSON.writeValueAsString(root);
  }

  static String markdown(Map<Row, List<Cell>> results, Instant started) {
    StringBuilder md = new StringBuilder();
    md.append("Scenario matrix, run started ")
        .append(started)
        .append(" (default rules; latency from the lab's onset line to the alert's start)\n\n");
    md.append("| scenario | expected | raised (latency from onset: cause named) | verdict |\n");
    md.append("|---|---|---|---|\n");
    results.forEach(
        (row, cells) -> {
          for (Cell cell : cells) {
            // Silent rules that stayed silent make the table long and say nothing: one line below.
            if (cell.passed()
                && cell.firings().isEmpty()
                && cell.expectation().kind() == Expectation.Kind.SILENT) {
              continue;
            }
            md.append("| `")
                .append(row.name())
                .append("` JDK ")
                .append(row.jdk())
                .append(" | ")
                .append(cell.expectation().describe())
                .append(" | ")
                .append(raised(cell))
                .append(" | ")
                .append(cell.passed() ? "ok" : "**FAIL**: " + cell.problem())
                .append(" |\n");
          }
          List<String> silent =
              cells.stream()
                  .filter(
                      c ->
                          c.passed()
                              && c.firings().isEmpty()
                              && c.expectation().kind() == Expectation.Kind.SILENT)
                  .flatMap(c -> c.expectation().rules().stream())
                  .sorted()
                  .toList();
          md.append("| `")
              .append(row.name())
              .append("` JDK ")
              .append(row.jdk())
              .append(" | silent: ")
              .append(String.join(", ", silent))
              .append(" | none | ok |\n");
        });
    return md.toString();
  }

  private static String raised(Cell cell) {
    if (cell.firings().isEmpty()) {
      return "none";
    }
    StringBuilder text = new StringBuilder();
    for (Raised raised : cell.firings()) {
      if (text.length() > 0) {
        text.append("<br>");
      }
      text.append(raised.rule());
      cell.latencySeconds(raised)
          .ifPresent(s -> text.append(String.format(Locale.ROOT, " after %.1f s", s)));
      text.append(": ").append(shorten(raised.summary()).replace("|", "\\|"));
    }
    return text.toString();
  }

  private static String shorten(String summary) {
    return summary.length() <= SUMMARY_CHARS
        ? summary
        : summary.substring(0, SUMMARY_CHARS) + "...";
  }
}
