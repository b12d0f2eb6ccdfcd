package io.jvmsentinel.daemon.http;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.detection.DetectionEngine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/alerts}: alerts pending and firing now, with their evidence, and {@code held}
 * when the rule is not being judged (the target does not answer).
 */
public final class AlertsRoute implements HttpEndpoint.Route {
  private final DetectionEngine engine;

  public AlertsRoute(DetectionEngine engine) {
    this.engine = engine;
  }

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) {
    List<Map<String, Object>> alerts = engine.active().stream().map(this::render).toList();
    return HttpEndpoint.Response.json(200, Map.of("alerts", alerts));
  }

  private Map<String, Object> render(ActiveAlert alert) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("alert", alert.ruleId());
    map.put("target", alert.target());
    map.put("key", alert.key());
    map.put("severity", alert.severity().tag());
    map.put("state", alert.state().name().toLowerCase(java.util.Locale.ROOT));
    map.put("since", alert.since());
    map.put("lastSeen", alert.lastSeen());
    engine.heldBecause(alert).ifPresent(held -> map.put("held", held));
    map.put("summary", alert.finding().summary());
    map.put("explanation", alert.finding().explanation());
    map.put("action", alert.finding().action());
    map.put("evidence", alert.finding().evidence());
    map.put("snapshot", alert.snapshot());
    if (alert.snapshotUnavailable() != null) {
      map.put("snapshotUnavailable", alert.snapshotUnavailable());
    }
    return map;
  }
}
