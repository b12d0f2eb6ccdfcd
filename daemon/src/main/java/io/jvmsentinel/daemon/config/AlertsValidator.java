package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks the {@code alerts} section and builds its {@link AlertsConfig}. Secrets (the Slack URL,
 * the PagerDuty routing key) are read here, and no message ever quotes one.
 */
final class AlertsValidator {
  static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  // java.net.http.HttpClient sets these itself and refuses them from callers.
  private static final Set<String> RESTRICTED_HEADERS =
      Set.of("connection", "content-length", "expect", "host", "upgrade");

  private final Problems problems;
  private final PasswordReader secrets;
  private final Path baseDir;

  AlertsValidator(Problems problems, PasswordReader secrets, Path baseDir) {
    this.problems = problems;
    this.secrets = secrets;
    this.baseDir = baseDir;
  }

  AlertsConfig validate(ConfigDocument.Alerts raw) {
    AlertsConfig d = AlertsConfig.DEFAULT;
    if (raw == null) {
      return d;
    }
    int queueSize = d.queueSize();
    if (raw.queueSize() != null) {
      if (raw.queueSize() < AlertsConfig.MIN_QUEUE_SIZE
          || raw.queueSize() > AlertsConfig.MAX_QUEUE_SIZE) {
        problems.add(
            "'alerts.queueSize' ("
                + raw.queueSize()
                + ") must be between "
                + AlertsConfig.MIN_QUEUE_SIZE
                + " and "
                + AlertsConfig.MAX_QUEUE_SIZE);
      } else {
        queueSize = raw.queueSize().intValue();
      }
    }
    Duration initial =
        positive("retryInitialDelay", raw.retryInitialDelay(), d.retryInitialDelay());
    Duration max = positive("retryMaxDelay", raw.retryMaxDelay(), d.retryMaxDelay());
    Duration timeout = positive("httpTimeout", raw.httpTimeout(), d.httpTimeout());
    if (max.compareTo(initial) < 0) {
      problems.add(
          "'alerts.retryMaxDelay' ("
              + Durations.format(max)
              + ") must not be less than 'alerts.retryInitialDelay' ("
              + Durations.format(initial)
              + ")");
    }
    Optional<Path> stateFile = stateFile(raw.stateFile());
    Duration restoreGrace = raw.restoreGrace() == null ? d.restoreGrace() : raw.restoreGrace();
    ConfigDocument.Sinks sinks = raw.sinks();
    if (sinks == null) {
      sinks = new ConfigDocument.Sinks(null, null, null, null);
    }
    return new AlertsConfig(
        queueSize,
        initial,
        max,
        timeout,
        Optional.ofNullable(sinks.webhook()).flatMap(this::webhook),
        Optional.ofNullable(sinks.slack()).flatMap(this::slack),
        Optional.ofNullable(sinks.pagerduty()).flatMap(this::pagerduty),
        Optional.ofNullable(sinks.alertmanager()).flatMap(this::alertmanager),
        stateFile,
        restoreGrace,
        runbookBaseUrl(raw.runbookBaseUrl()));
  }

  /** An absolute http(s) URL ending in "/", to which a runbook's file name is appended. */
  private URI runbookBaseUrl(String text) {
    if (text == null || problems.unreadable("alerts.runbookBaseUrl")) {
      return AlertsConfig.DEFAULT_RUNBOOK_BASE_URL;
    }
    try {
      URI uri = new URI(text.trim());
      if ((!"https".equalsIgnoreCase(uri.getScheme()) && !"http".equalsIgnoreCase(uri.getScheme()))
          || uri.getHost() == null
          || !uri.getPath().endsWith("/")) {
        problems.add(
            "'alerts.runbookBaseUrl' (\""
                + text
                + "\") must be an http(s) URL ending in \"/\", e.g."
                + " https://wiki.example.com/jvm-sentinel/runbooks/");
        return AlertsConfig.DEFAULT_RUNBOOK_BASE_URL;
      }
      return uri;
    } catch (URISyntaxException e) {
      problems.add("'alerts.runbookBaseUrl' (\"" + text + "\") is not a URL: " + e.getReason());
      return AlertsConfig.DEFAULT_RUNBOOK_BASE_URL;
    }
  }

  /** The state file, relative to the configuration file; its directory must exist already. */
  private Optional<Path> stateFile(String text) {
    if (text == null || problems.unreadable("alerts.stateFile")) {
      return Optional.empty();
    }
    if (text.isBlank()) {
      problems.add("'alerts.stateFile' is empty; leave it out to keep alerts in memory only");
      return Optional.empty();
    }
    Optional<Path> resolved =
        ConfigPaths.resolve(baseDir, text, m -> problems.add("'alerts.stateFile' " + m));
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    Path file = resolved.get();
    Path parent = file.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      problems.add(
          "'alerts.stateFile': the directory of "
              + file
              + " does not exist (in Kubernetes, mount an emptyDir there)");
      return Optional.empty();
    }
    if (Files.isDirectory(file)) {
      problems.add("'alerts.stateFile': " + file + " is a directory, not a file");
      return Optional.empty();
    }
    return Optional.of(file);
  }

  private Duration positive(String key, Duration value, Duration fallback) {
    if (value == null) {
      return fallback;
    }
    if (value.isZero()) {
      problems.add("'alerts." + key + "' must be greater than 0s");
      return fallback;
    }
    return value;
  }

  private Optional<AlertsConfig.Webhook> webhook(ConfigDocument.Webhook raw) {
    String path = "alerts.sinks.webhook";
    Optional<URI> url = requiredUrl(path + ".url", raw.url());
    Map<String, String> headers = raw.headers() == null ? Map.of() : raw.headers();
    long bad =
        headers.entrySet().stream()
            .filter(h -> !header(path + ".headers", h.getKey(), h.getValue()))
            .count();
    return url.filter(u -> bad == 0).map(u -> new AlertsConfig.Webhook(u, headers));
  }

  // Values are never quoted: a header is the usual place for a token.
  private boolean header(String path, String name, String value) {
    if (problems.unreadable(path + "." + name)) {
      return false;
    }
    if (!HEADER_NAME.matcher(name).matches()) {
      problems.add("'" + path + "': '" + name + "' is not a valid HTTP header name");
      return false;
    }
    if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
      problems.add("'" + path + "." + name + "': the HTTP client sets this header itself");
      return false;
    }
    if (value == null || value.isEmpty()) {
      problems.add("'" + path + "." + name + "' needs a value");
      return false;
    }
    if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
      problems.add("'" + path + "." + name + "' must not contain line breaks");
      return false;
    }
    return true;
  }

  private Optional<AlertsConfig.Slack> slack(ConfigDocument.Slack raw) {
    String path = "alerts.sinks.slack";
    return secret(path, "webhookUrl", raw.webhookUrlEnv(), raw.webhookUrlFile())
        .filter(
            url -> {
              if (parseUrl(url.value()).isEmpty()) {
                problems.add(
                    "'"
                        + path
                        + "': the webhook URL read from "
                        + (raw.webhookUrlEnv() != null
                            ? "environment variable '" + raw.webhookUrlEnv() + "'"
                            : "file " + raw.webhookUrlFile())
                        + " is not an absolute http or https URL");
                return false;
              }
              return true;
            })
        .map(AlertsConfig.Slack::new);
  }

  private Optional<AlertsConfig.PagerDuty> pagerduty(ConfigDocument.PagerDuty raw) {
    String path = "alerts.sinks.pagerduty";
    Optional<Secret> key = secret(path, "routingKey", raw.routingKeyEnv(), raw.routingKeyFile());
    Optional<URI> url =
        raw.url() == null
            ? (problems.unreadable(path + ".url")
                ? Optional.empty()
                : Optional.of(AlertsConfig.DEFAULT_PAGERDUTY_URL))
            : url(path + ".url", raw.url());
    if (key.isEmpty() || url.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new AlertsConfig.PagerDuty(key.get(), url.get()));
  }

  private Optional<AlertsConfig.Alertmanager> alertmanager(ConfigDocument.Alertmanager raw) {
    String path = "alerts.sinks.alertmanager";
    if (problems.unreadable(path + ".url") || problems.unreadable(path + ".urls")) {
      return Optional.empty();
    }
    if ((raw.url() == null) == (raw.urls() == null || raw.urls().isEmpty())) {
      problems.add(
          "'"
              + path
              + "' needs exactly one of 'url' or 'urls' (a list, for the instances of an HA"
              + " cluster)"
              + (raw.url() == null ? "" : "; both are set"));
      return Optional.empty();
    }
    if (raw.url() != null) {
      return url(path + ".url", raw.url()).map(u -> new AlertsConfig.Alertmanager(List.of(u)));
    }
    List<URI> urls = new ArrayList<>();
    for (int i = 0; i < raw.urls().size(); i++) {
      String at = path + ".urls[" + i + "]";
      String text = raw.urls().get(i);
      if (text == null) {
        if (!problems.unreadableAt(at)) {
          problems.add("'" + at + "' is empty");
        }
        continue;
      }
      url(at, text).ifPresent(urls::add);
    }
    return urls.size() == raw.urls().size()
        ? Optional.of(new AlertsConfig.Alertmanager(urls))
        : Optional.empty();
  }

  /** A secret from {@code <name>Env} or {@code <name>File}: exactly one of them. */
  private Optional<Secret> secret(String path, String name, String envVar, String file) {
    return new SecretKeys(problems, secrets, baseDir).read(path, name, envVar, file);
  }

  private Optional<URI> requiredUrl(String path, String text) {
    if (text == null) {
      if (!problems.unreadable(path)) {
        problems.add("'" + path + "' is required");
      }
      return Optional.empty();
    }
    return url(path, text);
  }

  private Optional<URI> url(String path, String text) {
    Optional<URI> url = parseUrl(text);
    if (url.isEmpty()) {
      problems.add(
          "'" + path + "' must be an absolute http or https URL, such as https://host:8443/path");
    }
    return url;
  }

  /** An absolute http or https URL with a host; empty otherwise. */
  static Optional<URI> parseUrl(String text) {
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return Optional.of(uri);
      }
    } catch (URISyntaxException e) {
      // reported by the caller, without the text: it may be a secret
    }
    return Optional.empty();
  }
}
