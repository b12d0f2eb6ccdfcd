package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.config.Secret;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

/**
 * Sends PagerDuty Events API v2 events: {@code trigger} when an alert fires, {@code resolve} when
 * it clears, both with the notification's stable dedup key, so PagerDuty keeps one incident per
 * alert and a restarted daemon re-raising a firing alert does not page twice.
 */
public final class PagerDutyNotifier implements Notifier {
  private static final int SUMMARY_MAX = 1024; // the Events API rejects longer summaries
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Secret routingKey;
  private final URI url;
  private final JsonPoster poster;

  /**
   * @param url the enqueue endpoint, {@code https://events.pagerduty.com/v2/enqueue} in production
   */
  public PagerDutyNotifier(Secret routingKey, URI url, HttpClient client, Duration timeout) {
    this.routingKey = routingKey;
    this.url = url;
    this.poster = new JsonPoster(client, timeout);
  }

  @Override
  public String name() {
    return "pagerduty";
  }

  @Override
  public void send(AlertNotification notification) throws IOException {
    poster.post(url, SafeUrls.withPath(url), Map.of(), body(notification, routingKey));
  }

  static ObjectNode body(AlertNotification n, Secret routingKey) {
    ObjectNode event = NODES.objectNode();
    event.put("routing_key", routingKey.value());
    if (n.status() == AlertNotification.Status.RESOLVED) {
      // A resolve needs nothing but the key: PagerDuty ignores any payload on it.
      event.put("event_action", "resolve");
      event.put("dedup_key", n.dedupKey());
      return event;
    }
    event.put("event_action", "trigger");
    event.put("dedup_key", n.dedupKey());
    event.put("client", "jvm-sentinel");
    ObjectNode payload = event.putObject("payload");
    String summary = n.summary();
    payload.put(
        "summary",
        summary.length() <= SUMMARY_MAX ? summary : summary.substring(0, SUMMARY_MAX - 1) + "…");
    payload.put("source", n.target());
    payload.put("severity", n.severity().tag());
    payload.put("timestamp", n.startedAt().toString());
    payload.put("component", n.ruleId());
    ObjectNode details = NotificationJson.evidence(n.evidence());
    if (!n.targetTags().isEmpty()) {
      ObjectNode tags = details.putObject("target_tags");
      n.targetTags().forEach(tags::put);
    }
    n.snapshot().ifPresent(s -> details.put("jvm_sentinel_snapshot", s));
    n.snapshotUnavailable().ifPresent(why -> details.put("jvm_sentinel_snapshot_unavailable", why));
    if (n.status() == AlertNotification.Status.UPDATED) {
      // The same dedup key: PagerDuty adds it to the open incident's alert, it does not page again.
      details.put(
          "jvm_sentinel_update", "the evidence changed since the alert fired at " + n.startedAt());
    }
    payload.set("custom_details", details);
    if (!n.runbook().isEmpty()) {
      event.withArray("links").addObject().put("href", n.runbook()).put("text", "Runbook");
    }
    n.page()
        .ifPresent(
            url ->
                event.withArray("links").addObject().put("href", url).put("text", "Status page"));
    return event;
  }

  @Override
  public String toString() {
    return "pagerduty " + SafeUrls.withPath(url);
  }
}
