package io.jvmsentinel.daemon.web;

import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.notify.NotificationJson;
import io.jvmsentinel.daemon.http.HttpEndpoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Remembers the latest notification of each alert (fired or resolved) for the status page's
 * "recent" list, and passes every one on. {@code GET /api/v1/alerts/recent} serves them, newest
 * first. An alert is its {@link AlertNotification#dedupKey()}: its resolution replaces its firing,
 * so the list shows it once, in its latest state. Only the latest {@link #CAPACITY} alerts are kept
 * (as the webhook body: {@link NotificationJson#full}): a flapping rule cannot grow the daemon's
 * memory.
 */
public final class RecentAlerts implements AlertListener, HttpEndpoint.Route {
  public static final String PATH = "/api/v1/alerts/recent";
  static final int CAPACITY = 50;

  private final AlertListener next;
  private final Deque<AlertNotification> recent = new ArrayDeque<>();

  public RecentAlerts(AlertListener next) {
    this.next = next;
  }

  @Override
  public void notify(AlertNotification notification) {
    synchronized (recent) {
      String alert = notification.dedupKey();
      recent.removeIf(kept -> kept.dedupKey().equals(alert));
      recent.addFirst(notification);
      while (recent.size() > CAPACITY) {
        recent.removeLast();
      }
    }
    next.notify(notification);
  }

  @Override
  public void continued(AlertNotification notification) {
    next.continued(notification);
  }

  /** The latest notification of each kept alert, newest first. */
  public List<AlertNotification> all() {
    synchronized (recent) {
      return new ArrayList<>(recent);
    }
  }

  @Override
  public HttpEndpoint.Response get(HttpEndpoint.Request request) {
    return HttpEndpoint.Response.json(
        200, Map.of("alerts", all().stream().map(NotificationJson::full).toList()));
  }
}
