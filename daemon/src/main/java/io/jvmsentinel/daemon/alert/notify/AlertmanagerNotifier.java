package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Posts alerts to a Prometheus Alertmanager ({@code POST /api/v2/alerts}), the way Prometheus does.
 *
 * <p>Alertmanager resolves an alert by itself once its {@code endsAt} has passed. A firing alert is
 * therefore sent with {@code endsAt} = send time + {@link #VALIDITY} and must be sent again before
 * that: {@link Notifications} re-submits every still-firing alert every {@link #RESEND_INTERVAL}
 * (see {@link #resendsWhileFiring()}). If the daemon dies, its alerts resolve themselves within
 * {@link #VALIDITY} instead of firing forever. A resolved alert is sent with {@code endsAt} = the
 * time it resolved.
 */
public final class AlertmanagerNotifier implements Notifier {
  /** How often still-firing alerts are sent again; Prometheus' default resend delay. */
  public static final Duration RESEND_INTERVAL = Duration.ofMinutes(1);

  /** How far ahead a firing alert's endsAt is: 4 resends, as Prometheus sets it. */
  public static final Duration VALIDITY = RESEND_INTERVAL.multipliedBy(4);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final String name;
  private final URI alertsUrl;
  private final JsonPoster poster;
  private final Clock clock;

  /**
   * @param name the sink's name: {@code alertmanager}, or one per instance of an HA cluster
   * @param baseUrl where Alertmanager serves, e.g. {@code http://alertmanager:9093}
   * @param clock for the endsAt of firing alerts
   */
  public AlertmanagerNotifier(
      String name, URI baseUrl, HttpClient client, Duration timeout, Clock clock) {
    this.name = name;
    this.alertsUrl = alertsUrl(baseUrl);
    this.poster = new JsonPoster(client, timeout);
    this.clock = clock;
  }

  static URI alertsUrl(URI baseUrl) {
    String base = baseUrl.toString();
    return URI.create(base.replaceFirst("/+$", "") + "/api/v2/alerts");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean resendsWhileFiring() {
    return true;
  }

  @Override
  public void send(AlertNotification notification) throws IOException {
    poster.post(
        alertsUrl, SafeUrls.withPath(alertsUrl), Map.of(), body(notification, clock.instant()));
  }

  /**
   * @param now the send time: endsAt of a firing alert counts from here, not from when it fired, so
   *     an alert delivered late (after retries) is not already over when it arrives
   */
  static ArrayNode body(AlertNotification n, Instant now) {
    ObjectNode alert = NODES.objectNode();
    ObjectNode labels = alert.putObject("labels");
    labels.put("alertname", n.ruleId());
    labels.put("target", n.target());
    if (!n.key().isEmpty()) {
      labels.put("key", n.key());
    }
    labels.put("severity", n.severity().tag());
    labels.put("source", "jvm-sentinel");
    // The target's tags (namespace, pod, ...) route and group like the series' labels do; they
    // never replace the alert's own labels.
    n.targetTags()
        .forEach(
            (tag, value) -> {
              if (!labels.has(tag)) {
                labels.put(tag, value);
              }
            });
    ObjectNode annotations = alert.putObject("annotations");
    putIfNotEmpty(annotations, "summary", n.summary());
    putIfNotEmpty(annotations, "description", n.explanation());
    putIfNotEmpty(annotations, "action", n.action());
    putIfNotEmpty(annotations, "runbook_url", n.runbook());
    n.snapshot().ifPresent(s -> annotations.put("snapshot", s));
    n.snapshotUnavailable().ifPresent(why -> annotations.put("snapshot_unavailable", why));
    n.page().ifPresent(url -> annotations.put("page_url", url));
    alert.put("startsAt", n.startedAt().toString());
    boolean resolved = n.status() == AlertNotification.Status.RESOLVED;
    alert.put("endsAt", (resolved ? n.at() : now.plus(VALIDITY)).toString());
    return NODES.arrayNode().add(alert);
  }

  private static void putIfNotEmpty(ObjectNode json, String key, String value) {
    if (!value.isEmpty()) {
      json.put(key, value);
    }
  }

  @Override
  public String toString() {
    return name + " " + SafeUrls.withPath(alertsUrl);
  }
}
