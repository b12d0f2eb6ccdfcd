package io.jvmsentinel.daemon.web;

import io.jvmsentinel.daemon.alert.AlertListener;
import io.jvmsentinel.daemon.alert.AlertNotification;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Gives every notification a link to its alert on the status page, when {@code http.externalUrl}
 * says where people reach the daemon; passes them on unchanged otherwise.
 */
public final class AlertPageLinks implements AlertListener {
  private final Optional<URI> externalUrl;
  private final AlertListener next;

  public AlertPageLinks(Optional<URI> externalUrl, AlertListener next) {
    this.externalUrl = externalUrl;
    this.next = next;
  }

  /** {@code <externalUrl>/targets/<target>#alert=<dedup key>}, both parts percent-encoded. */
  public static String url(URI externalUrl, AlertNotification n) {
    return externalUrl
        + StatusPageRoute.TARGETS_PREFIX
        + encode(n.target())
        + "#alert="
        + encode(n.dedupKey());
  }

  private static String encode(String text) {
    // URLEncoder writes form encoding; a space in a path or fragment is %20, not '+'.
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private AlertNotification linked(AlertNotification n) {
    return externalUrl.map(url -> n.withPage(url(url, n))).orElse(n);
  }

  @Override
  public void notify(AlertNotification notification) {
    next.notify(linked(notification));
  }

  @Override
  public void continued(AlertNotification notification) {
    next.continued(linked(notification));
  }
}
