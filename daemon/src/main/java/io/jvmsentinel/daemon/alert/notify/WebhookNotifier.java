package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

/** POSTs each notification as a JSON object (the log line's fields plus explanation and action). */
public final class WebhookNotifier implements Notifier {
  private final URI url;
  private final Map<String, String> headers;
  private final JsonPoster poster;

  /**
   * @param headers extra request headers (e.g. {@code Authorization}); never logged
   * @param timeout the whole-request timeout
   */
  public WebhookNotifier(
      URI url, Map<String, String> headers, HttpClient client, Duration timeout) {
    this.url = url;
    this.headers = Map.copyOf(headers);
    this.poster = new JsonPoster(client, timeout);
  }

  @Override
  public String name() {
    return "webhook";
  }

  @Override
  public void send(AlertNotification notification) throws IOException {
    poster.post(url, SafeUrls.withPath(url), headers, body(notification));
  }

  static ObjectNode body(AlertNotification notification) {
    return NotificationJson.full(notification);
  }

  @Override
  public String toString() {
    return "webhook " + SafeUrls.withPath(url);
  }
}
