package io.jvmsentinel.daemon.export;

import io.jvmsentinel.daemon.WatchedTarget;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/targets/{target}/{report}}: what the JFR handlers know about one target, in
 * full (the metrics only carry the busiest few of each). Read-only, from in-memory snapshots.
 */
public final class TargetReportRoutes implements HttpEndpoint.Route {
  public static final String PREFIX = "/api/v1/targets/";
  private static final int DEFAULT_TOP = 20;
  private static final int MAX_TOP = 256;

  private final Supplier<List<WatchedTarget>> targets;
  private final Map<String, BiFunction<WatchedTarget, Integer, HttpEndpoint.Response>> reports =
      new LinkedHashMap<>();

  public TargetReportRoutes(Supplier<List<WatchedTarget>> targets) {
    this.targets = targets;
    reports.put(
        "thread-starts",
        (target, top) ->
            HttpEndpoint.Response.json(200, target.jfr().threadStarts().snapshot(top)));
    // Collapsed stacks, one line per creator site: flamegraph.pl and speedscope open this.
    reports.put(
        "thread-starts.collapsed",
        (target, top) ->
            HttpEndpoint.Response.text(200, target.jfr().threadStarts().collapsedStacks()));
    reports.put(
        "tls",
        (target, top) ->
            HttpEndpoint.Response.json(
                200,
                java.util.Map.of(
                    "handshakes", target.jfr().tlsHandshakes().snapshot(top),
                    // Certificates used in handshakes; the parsed rest (truststore roots) counted.
                    "certificates", target.jfr().certificates().snapshot(),
                    "unusedCertificates", target.jfr().certificates().unusedCertificates())));
  }

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) {
    String rest = request.path().substring(PREFIX.length());
    int slash = rest.indexOf('/');
    if (slash <= 0) {
      throw new HttpEndpoint.NotFound(
          "use /api/v1/targets/{target}/{report}; reports: " + reports.keySet());
    }
    String name = rest.substring(0, slash);
    String report = rest.substring(slash + 1);
    WatchedTarget target =
        targets.get().stream()
            .filter(t -> t.name().equals(name))
            .findFirst()
            // Never the name as sent: a 404 body must not carry what the client sent.
            .orElseThrow(
                () -> new HttpEndpoint.NotFound("no such target; GET /api/v1/targets lists them"));
    BiFunction<WatchedTarget, Integer, HttpEndpoint.Response> render = reports.get(report);
    if (render == null) {
      throw new HttpEndpoint.NotFound("no such report; reports: " + reports.keySet());
    }
    return render.apply(target, top(request.rawQuery()));
  }

  private static int top(String query) {
    if (query != null) {
      for (String part : query.split("&")) {
        if (part.startsWith("top=")) {
          try {
            return Math.max(1, Math.min(MAX_TOP, Integer.parseInt(part.substring(4))));
          } catch (NumberFormatException e) {
            return DEFAULT_TOP;
          }
        }
      }
    }
    return DEFAULT_TOP;
  }
}
