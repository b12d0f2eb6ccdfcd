package io.jvmsentinel.daemon.alert.notify;

import io.jvmsentinel.daemon.config.AlertsConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The notifiers an {@link AlertsConfig} asks for: the JSON log first, then each configured sink.
 */
final class Sinks {
  private Sinks() {}

  static List<Notifier> from(AlertsConfig config, Clock clock) {
    List<Notifier> sinks = new ArrayList<>();
    sinks.add(new JsonLogNotifier());
    if (!postsAnywhere(config)) {
      // No HTTP client: building one loads the JDK's HTTP and TLS stacks, about 400 classes the
      // daemon would carry for its whole life (docs/performance.md).
      return sinks;
    }
    HttpClient client = JsonPoster.newClient(config.httpTimeout());
    config
        .webhook()
        .ifPresent(
            w ->
                sinks.add(new WebhookNotifier(w.url(), w.headers(), client, config.httpTimeout())));
    config
        .slack()
        .ifPresent(s -> sinks.add(new SlackNotifier(s.webhookUrl(), client, config.httpTimeout())));
    config
        .pagerduty()
        .ifPresent(
            p ->
                sinks.add(
                    new PagerDutyNotifier(p.routingKey(), p.url(), client, config.httpTimeout())));
    config
        .alertmanager()
        .ifPresent(
            am -> {
              List<URI> urls = am.urls();
              for (int i = 0; i < urls.size(); i++) {
                // One sink per instance: a dead replica must not hold back the others.
                String name = urls.size() == 1 ? "alertmanager" : "alertmanager-" + (i + 1);
                sinks.add(
                    new AlertmanagerNotifier(
                        name, urls.get(i), client, config.httpTimeout(), clock));
              }
            });
    return sinks;
  }

  private static boolean postsAnywhere(AlertsConfig config) {
    return config.webhook().isPresent()
        || config.slack().isPresent()
        || config.pagerduty().isPresent()
        || config.alertmanager().isPresent();
  }
}
