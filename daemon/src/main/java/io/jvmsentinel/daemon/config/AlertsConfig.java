package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

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

  /**
   * @param url where the notification is POSTed as JSON
   * @param headers extra request headers, e.g. an {@code Authorization} header
   */
  public record Webhook(URI url, Map<String, String> headers) {
    public Webhook {
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
  public record Slack(Secret webhookUrl) {}

  /**
   * @param routingKey the integration key of the PagerDuty service
   * @param url the Events API v2 enqueue endpoint
   */
  public record PagerDuty(Secret routingKey, URI url) {}

  /**
   * @param urls base URLs ({@code http://alertmanager:9093}); every instance of an HA cluster gets
   *     every alert, as Prometheus does it
   */
  public record Alertmanager(List<URI> urls) {
    public Alertmanager {
      urls = List.copyOf(urls);
    }
  }

  static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  // java.net.http.HttpClient sets these itself and refuses them from callers.
  private static final Set<String> RESTRICTED_HEADERS =
      Set.of("connection", "content-length", "expect", "host", "upgrade");

  /**
   * The {@code alerts} section. Secrets (the Slack URL, the PagerDuty routing key) are read here,
   * and no message ever quotes one.
   */
  static AlertsConfig read(ConfigNode s) {
    AlertsConfig d = DEFAULT;
    Long queue = s.integer("queueSize");
    Duration initial = s.duration("retryInitialDelay", d.retryInitialDelay());
    Duration max = s.duration("retryMaxDelay", d.retryMaxDelay());
    Duration timeout = s.duration("httpTimeout", d.httpTimeout());
    String stateFile = s.text("stateFile");
    Duration restoreGrace = s.duration("restoreGrace", d.restoreGrace());
    String runbookBaseUrl = s.text("runbookBaseUrl");
    ConfigNode sinks = s.section("sinks");
    ConfigNode webhook = sinks.section("webhook");
    String webhookUrl = webhook.text("url");
    Map<String, String> headers = webhook.texts("headers");
    ConfigNode slack = sinks.section("slack");
    ConfigNode.SecretRef slackUrl = slack.secretRef("webhookUrl");
    ConfigNode pagerduty = sinks.section("pagerduty");
    ConfigNode.SecretRef routingKey = pagerduty.secretRef("routingKey");
    String pagerdutyUrl = pagerduty.text("url");
    ConfigNode alertmanager = sinks.section("alertmanager");
    String amUrl = alertmanager.text("url");
    List<String> amUrls = alertmanager.listOf("urls", ConfigNode::text);

    boolean queueOk =
        queue != null && s.between("queueSize", queue, MIN_QUEUE_SIZE, MAX_QUEUE_SIZE, "");
    initial = s.positive("retryInitialDelay", initial) ? initial : d.retryInitialDelay();
    max = s.positive("retryMaxDelay", max) ? max : d.retryMaxDelay();
    timeout = s.positive("httpTimeout", timeout) ? timeout : d.httpTimeout();
    s.notLess("retryMaxDelay", max, "retryInitialDelay", initial);
    return new AlertsConfig(
        queueOk ? queue.intValue() : d.queueSize(),
        initial,
        max,
        timeout,
        webhook.present() ? webhook(webhook, webhookUrl, headers) : Optional.empty(),
        slack.present() ? slack(slack, slackUrl) : Optional.empty(),
        pagerduty.present() ? pagerduty(pagerduty, routingKey, pagerdutyUrl) : Optional.empty(),
        alertmanager.present() ? alertmanager(alertmanager, amUrl, amUrls) : Optional.empty(),
        stateFile(s, stateFile),
        restoreGrace,
        runbookBaseUrl(s, runbookBaseUrl));
  }

  /** An absolute http(s) URL ending in "/", to which a runbook's file name is appended. */
  private static URI runbookBaseUrl(ConfigNode s, String text) {
    if (text == null || s.unreadable("runbookBaseUrl")) {
      return DEFAULT_RUNBOOK_BASE_URL;
    }
    try {
      URI uri = new URI(text.trim());
      String scheme = String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT);
      return s.check(
              (scheme.equals("http") || scheme.equals("https"))
                  && uri.getHost() != null
                  && uri.getPath().endsWith("/"),
              "'alerts.runbookBaseUrl' (\"%s\") must be an http(s) URL ending in \"/\", e.g."
                  + " https://wiki.example.com/jvm-sentinel/runbooks/",
              text)
          ? uri
          : DEFAULT_RUNBOOK_BASE_URL;
    } catch (URISyntaxException e) {
      s.check(false, "'alerts.runbookBaseUrl' (\"%s\") is not a URL: %s", text, e.getReason());
      return DEFAULT_RUNBOOK_BASE_URL;
    }
  }

  /** The state file, relative to the configuration file; its directory must exist already. */
  private static Optional<Path> stateFile(ConfigNode s, String text) {
    if (text == null
        || s.unreadable("stateFile")
        || !s.check(
            !text.isBlank(),
            "'alerts.stateFile' is empty; leave it out to keep alerts in memory only")) {
      return Optional.empty();
    }
    return s.resolve(text, m -> s.check(false, "'alerts.stateFile' %s", m))
        .filter(
            file ->
                s.check(
                    file.toAbsolutePath().getParent() != null
                        && Files.isDirectory(file.toAbsolutePath().getParent()),
                    "'alerts.stateFile': the directory of %s does not exist (in Kubernetes, mount"
                        + " an emptyDir there)",
                    file))
        .filter(
            file ->
                s.check(
                    !Files.isDirectory(file),
                    "'alerts.stateFile': %s is a directory, not a file",
                    file));
  }

  private static Optional<Webhook> webhook(ConfigNode s, String text, Map<String, String> headers) {
    Optional<URI> url = text == null ? Optional.empty() : url(s, "alerts.sinks.webhook.url", text);
    if (text == null && !s.unreadable("url")) {
      s.check(false, "'alerts.sinks.webhook.url' is required");
    }
    Map<String, String> all = headers == null ? Map.of() : headers;
    long bad = all.entrySet().stream().filter(h -> !header(s, h.getKey(), h.getValue())).count();
    return url.filter(u -> bad == 0).map(u -> new Webhook(u, all));
  }

  // Values are never quoted: a header is the usual place for a token.
  private static boolean header(ConfigNode s, String name, String value) {
    String path = "alerts.sinks.webhook.headers";
    return !s.unreadable("headers." + name)
        && s.check(
            HEADER_NAME.matcher(name).matches(),
            "'%s': '%s' is not a valid HTTP header name",
            path,
            name)
        && s.check(
            !RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT)),
            "'%s.%s': the HTTP client sets this header itself",
            path,
            name)
        && s.check(value != null && !value.isEmpty(), "'%s.%s' needs a value", path, name)
        && s.check(
            value.chars().noneMatch(c -> c == '\r' || c == '\n' || c == 0),
            "'%s.%s' must not contain line breaks",
            path,
            name);
  }

  private static Optional<Slack> slack(ConfigNode s, ConfigNode.SecretRef ref) {
    String source =
        ref.envVar() != null ? "environment variable '" + ref.envVar() + "'" : "file " + ref.file();
    return ref.read()
        .filter(
            url ->
                s.check(
                    ConfigNode.httpUrl(url.value()).isPresent(),
                    "'alerts.sinks.slack': the webhook URL read from %s is not an absolute http or"
                        + " https URL",
                    source))
        .map(Slack::new);
  }

  private static Optional<PagerDuty> pagerduty(
      ConfigNode s, ConfigNode.SecretRef routingKey, String text) {
    Optional<Secret> key = routingKey.read();
    Optional<URI> url =
        text != null
            ? url(s, "alerts.sinks.pagerduty.url", text)
            : Optional.of(DEFAULT_PAGERDUTY_URL).filter(u -> !s.unreadable("url"));
    return key.isEmpty() || url.isEmpty()
        ? Optional.empty()
        : Optional.of(new PagerDuty(key.get(), url.get()));
  }

  private static Optional<Alertmanager> alertmanager(
      ConfigNode s, String text, List<String> texts) {
    String path = "alerts.sinks.alertmanager";
    if (s.unreadable("url")
        || s.unreadable("urls")
        || !s.check(
            (text == null) != (texts == null || texts.isEmpty()),
            "'%s' needs exactly one of 'url' or 'urls' (a list, for the instances of an HA"
                + " cluster)%s",
            path,
            text == null ? "" : "; both are set")) {
      return Optional.empty();
    }
    if (text != null) {
      return url(s, path + ".url", text).map(u -> new Alertmanager(List.of(u)));
    }
    List<URI> urls = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      String at = path + ".urls[" + i + "]";
      if (texts.get(i) != null) {
        url(s, at, texts.get(i)).ifPresent(urls::add);
      } else if (!s.unreadable("urls[" + i + "]")) {
        s.check(false, "'%s' is empty", at);
      }
    }
    return urls.size() == texts.size() ? Optional.of(new Alertmanager(urls)) : Optional.empty();
  }

  private static Optional<URI> url(ConfigNode s, String path, String text) {
    Optional<URI> url = ConfigNode.httpUrl(text);
    s.check(
        url.isPresent(),
        "'%s' must be an absolute http or https URL, such as https://host:8443/path",
        path);
    return url;
  }
}
