package io.jvmsentinel.daemon.web;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import io.jvmsentinel.daemon.alert.SignalHistory;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WindowedEvidence;
import io.jvmsentinel.daemon.config.Durations;
import io.jvmsentinel.daemon.http.HttpEndpoint;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.jvmsentinel.daemon.web.charts.CreatorFlameGraph;
import io.jvmsentinel.daemon.web.charts.TargetSeries;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * {@code GET /api/v1/targets/{target}/{report}}: what the JFR handlers know about one target, in
 * full (the metrics only carry the busiest few of each). Read-only, from in-memory snapshots.
 * {@code ?top=N} bounds the entries; {@code ?window=5m} on the thread-start reports gives the
 * creators of a recent window (from the detection history) instead of since the stream started.
 */
public final class TargetReportRoutes implements HttpEndpoint.Route {
  public static final String PREFIX = "/api/v1/targets/";
  private static final int DEFAULT_TOP = 20;
  private static final int MAX_TOP = 256;

  private static final Duration MAX_WINDOW = Duration.ofMinutes(15);

  private final Supplier<List<WatchedTarget>> targets;
  private final Function<String, Optional<SignalHistory>> histories;
  private final Map<String, BiFunction<WatchedTarget, Query, HttpEndpoint.Response>> reports =
      new LinkedHashMap<>();

  /** What a report is asked for: how many entries, and over which recent window (or all). */
  private record Query(int top, Optional<Duration> window) {}

  /** Without the status page's storm threshold (the series report then shows none). */
  public TargetReportRoutes(
      Supplier<List<WatchedTarget>> targets, Function<String, Optional<SignalHistory>> histories) {
    this(targets, histories, name -> Double.NaN);
  }

  /**
   * @param histories each target's detection history by name (the windowed reports read it)
   * @param stormThreshold each target's ThreadStorm rate threshold by name, drawn on the status
   *     page's thread start chart
   */
  public TargetReportRoutes(
      Supplier<List<WatchedTarget>> targets,
      Function<String, Optional<SignalHistory>> histories,
      ToDoubleFunction<String> stormThreshold) {
    this.targets = targets;
    this.histories = histories;
    reports.put(
        "thread-starts",
        (target, query) -> HttpEndpoint.Response.json(200, threadStarts(target, query)));
    // Collapsed stacks, one line per creator site: flamegraph.pl and speedscope open this.
    reports.put(
        "thread-starts.collapsed",
        (target, query) ->
            HttpEndpoint.Response.text(
                200,
                query.window().isPresent()
                    ? threadStarts(target, new Query(MAX_TOP, query.window())).collapsed()
                    : target.jfr().threadStarts().collapsedStacks()));
    // The status page's charts: the 15-minute series and the creators as a flame graph tree.
    reports.put(
        "series",
        (target, query) ->
            HttpEndpoint.Response.json(
                200,
                TargetSeries.of(
                    histories.apply(target.name()).map(SignalHistory::all).orElse(List.of()),
                    stormThreshold.applyAsDouble(target.name()))));
    reports.put(
        "flame",
        (target, query) ->
            HttpEndpoint.Response.json(200, CreatorFlameGraph.of(threadStarts(target, query))));
    reports.put(
        "tls",
        (target, query) ->
            HttpEndpoint.Response.json(
                200,
                java.util.Map.of(
                    "handshakes", target.jfr().tlsHandshakes().snapshot(query.top()),
                    // Certificates used in handshakes; the parsed rest (truststore roots) counted.
                    "certificates", target.jfr().certificates().snapshot(),
                    "unusedCertificates", target.jfr().certificates().unusedCertificates())));
  }

  /** Since the stream started, or over a recent window from the detection history. */
  private ThreadStartReport threadStarts(WatchedTarget target, Query query) {
    if (query.window().isEmpty()) {
      return target.jfr().threadStarts().snapshot(query.top());
    }
    List<SignalSample> samples =
        histories
            .apply(target.name())
            .map(history -> history.window(query.window().get()))
            .orElse(List.of());
    return WindowedEvidence.creatorSites(samples, query.top());
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
    BiFunction<WatchedTarget, Query, HttpEndpoint.Response> render = reports.get(report);
    if (render == null) {
      throw new HttpEndpoint.NotFound("no such report; reports: " + reports.keySet());
    }
    String query = request.rawQuery();
    Optional<Duration> window;
    try {
      window = window(query);
    } catch (IllegalArgumentException e) {
      return HttpEndpoint.Response.json(400, Map.of("error", e.getMessage()));
    }
    return render.apply(target, new Query(top(query), window));
  }

  /** {@code window=5m}: a recent window, at most the 15 minutes detection keeps. */
  private static Optional<Duration> window(String query) {
    String value = parameter(query, "window");
    if (value == null) {
      return Optional.empty();
    }
    Duration window;
    try {
      window = Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "window must be a duration such as 30s, 5m or 15m (at most 15m)");
    }
    if (window.isZero() || window.compareTo(MAX_WINDOW) > 0) {
      throw new IllegalArgumentException("window must be more than 0 and at most 15m");
    }
    return Optional.of(window);
  }

  private static String parameter(String query, String name) {
    if (query != null) {
      for (String part : query.split("&")) {
        if (part.startsWith(name + "=")) {
          return part.substring(name.length() + 1);
        }
      }
    }
    return null;
  }

  private static int top(String query) {
    String value = parameter(query, "top");
    if (value != null) {
      try {
        return Math.max(1, Math.min(MAX_TOP, Integer.parseInt(value)));
      } catch (NumberFormatException e) {
        return DEFAULT_TOP;
      }
    }
    return DEFAULT_TOP;
  }
}
