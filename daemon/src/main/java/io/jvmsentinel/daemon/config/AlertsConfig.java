package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where alert notifications go and how hard the daemon tries. The JSON log is always on; every
 * other sink is optional, and each sink has its own queue, so a slow or dead sink delays no other.
 *
 * @param queueSize notifications each sink may hold while it is down; more are dropped (counted)
 * @param retryInitialDelay the first wait after a failed delivery
 * @param retryMaxDelay the cap of the exponential backoff between attempts
 * @param httpTimeout connect timeout and whole-request timeout of every HTTP call
 * @param webhook a generic JSON webhook
 * @param slack a Slack incoming webhook
 * @param pagerduty a PagerDuty Events API v2 integration
 * @param alertmanager one or more Prometheus Alertmanagers (each gets every alert)
 * @param stateFile where firing alerts are kept across daemon restarts (none: in memory only)
 * @param restoreGrace how long a restored alert is held before it may resolve: the rules need that
 *     much fresh history to tell whether its condition still holds
 * @param runbookBaseUrl where the runbooks live (ends in "/"): a notification links {@code
 *     <runbookBaseUrl><RuleId>.md}, never the bare repository path {@code alerts/runbooks/...}
 */
public record AlertsConfig(
    int queueSize,
    Duration retryInitialDelay,
    Duration retryMaxDelay,
    Duration httpTimeout,
    Optional<Webhook> webhook,
    Optional<Slack> slack,
    Optional<PagerDuty> pagerduty,
    Optional<Alertmanager> alertmanager,
    Optional<Path> stateFile,
    Duration restoreGrace,
    URI runbookBaseUrl) {
  public static final int MIN_QUEUE_SIZE = 1;
  public static final Duration DEFAULT_RESTORE_GRACE = Duration.ofSeconds(60);
  public static final int MAX_QUEUE_SIZE = 100_000;
  public static final URI DEFAULT_PAGERDUTY_URL =
      URI.create("https://events.pagerduty.com/v2/enqueue");

  /** This repository's runbooks, as the Prometheus rules link them. */
  public static final URI DEFAULT_RUNBOOK_BASE_URL =
      URI.create("https://github.com/jvm-sentinel/jvm-sentinel/blob/main/alerts/runbooks/");

  /** The JSON log only. */
  public static final AlertsConfig DEFAULT =
      new AlertsConfig(
          1000,
          Duration.ofSeconds(1),
          Duration.ofSeconds(60),
          Duration.ofSeconds(5),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          DEFAULT_RESTORE_GRACE,
          DEFAULT_RUNBOOK_BASE_URL);

  public AlertsConfig {
    Objects.requireNonNull(retryInitialDelay, "retryInitialDelay");
    Objects.requireNonNull(retryMaxDelay, "retryMaxDelay");
    Objects.requireNonNull(httpTimeout, "httpTimeout");
    Objects.requireNonNull(webhook, "webhook");
    Objects.requireNonNull(slack, "slack");
    Objects.requireNonNull(pagerduty, "pagerduty");
    Objects.requireNonNull(alertmanager, "alertmanager");
    Objects.requireNonNull(stateFile, "stateFile");
    Objects.requireNonNull(restoreGrace, "restoreGrace");
  }

  /**
   * @param url where the notification is POSTed as JSON
   * @param headers extra request headers, e.g. an {@code Authorization} header
   */
  public record Webhook(URI url, Map<String, String> headers) {
    public Webhook {
      Objects.requireNonNull(url, "url");
      headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    @Override
    public String toString() {
      // Header values are often credentials.
      return "Webhook[url=" + url + ", headers=" + headers.keySet() + "]";
    }
  }

  /**
   * @param webhookUrl the incoming webhook's URL; it is a credential (whoever has it can post)
   */
  public record Slack(Secret webhookUrl) {
    public Slack {
      Objects.requireNonNull(webhookUrl, "webhookUrl");
    }
  }

  /**
   * @param routingKey the integration key of the PagerDuty service
   * @param url the Events API v2 enqueue endpoint
   */
  public record PagerDuty(Secret routingKey, URI url) {
    public PagerDuty {
      Objects.requireNonNull(routingKey, "routingKey");
      Objects.requireNonNull(url, "url");
    }
  }

  /**
   * @param urls base URLs ({@code http://alertmanager:9093}); every instance of an HA cluster gets
   *     every alert, as Prometheus does it
   */
  public record Alertmanager(List<URI> urls) {
    public Alertmanager {
      urls = List.copyOf(urls);
    }
  }
}
