package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.alert.AlertNotification;
import java.net.URI;

/**
 * Turns a rule's runbook path in this repository ({@code alerts/runbooks/ThreadStorm.md}) into a
 * link under the configured base URL ({@code alerts.runbookBaseUrl}), so Slack, PagerDuty,
 * Alertmanager and webhooks get a URL someone can open, not a path.
 */
final class RunbookLinks {
  static final String REPOSITORY_PATH = "alerts/runbooks/";

  private final String base;

  RunbookLinks(URI base) {
    String text = base.toString();
    this.base = text.endsWith("/") ? text : text + "/";
  }

  AlertNotification linked(AlertNotification n) {
    if (!n.runbook().startsWith(REPOSITORY_PATH)) {
      return n;
    }
    return n.withRunbook(base + n.runbook().substring(REPOSITORY_PATH.length()));
  }
}
