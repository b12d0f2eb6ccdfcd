package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/** Checks the {@code http} section's TLS and authentication and builds its {@link HttpConfig}. */
final class HttpValidator {
  private final Problems problems;
  private final SecretKeys secrets;

  HttpValidator(Problems problems, SecretKeys secrets) {
    this.problems = problems;
    this.secrets = secrets;
  }

  HttpConfig validate(ConfigDocument.Http raw, HostPort listen) {
    if (raw == null) {
      return new HttpConfig(listen);
    }
    Optional<StoreFile> tls = Optional.empty();
    if (raw.tls() != null) {
      ConfigDocument.HttpTls t = raw.tls();
      tls =
          new StoreFiles(problems, secrets)
              .read(
                  "http.tls",
                  "keyStore",
                  t.keyStore(),
                  t.keyStorePasswordEnv(),
                  t.keyStorePasswordFile(),
                  StoreFiles.Kind.KEY_STORE);
    }
    return new HttpConfig(
        listen,
        tls,
        auth(raw.auth()),
        patterns(raw.maskArguments()),
        patterns(raw.showProperties()),
        Boolean.TRUE.equals(raw.openMetrics()),
        externalUrl(raw.externalUrl()));
  }

  // An unreadable pattern is null here; its problem is already reported.
  private static List<Pattern> patterns(List<Pattern> raw) {
    return raw == null ? List.of() : raw.stream().filter(Objects::nonNull).toList();
  }

  /**
   * An absolute http(s) URL without query, fragment or user info: the daemon appends page paths to
   * it, and it goes into every notification, where a password must never travel.
   */
  private Optional<URI> externalUrl(String text) {
    if (text == null || problems.unreadable("http.externalUrl")) {
      return Optional.empty();
    }
    Optional<URI> url = AlertsValidator.parseUrl(text);
    if (url.isEmpty()
        || url.get().getRawQuery() != null
        || url.get().getRawFragment() != null
        || url.get().getRawUserInfo() != null) {
      problems.add(
          "'http.externalUrl' must be an absolute http or https URL without query, fragment or"
              + " user info, such as https://sentinel.example.com/orders");
      return Optional.empty();
    }
    String trimmed = url.get().toString().replaceAll("/+$", "");
    return Optional.of(URI.create(trimmed));
  }

  private HttpAuth auth(ConfigDocument.HttpAuth raw) {
    if (raw == null || problems.unreadable("http.auth")) {
      return HttpAuth.NONE;
    }
    if ((raw.basic() == null) == (raw.bearer() == null)) {
      if (!problems.unreadable("http.auth.basic") && !problems.unreadable("http.auth.bearer")) {
        problems.add(
            "'http.auth' needs exactly one of 'basic' or 'bearer'"
                + (raw.basic() == null ? "" : "; both are set"));
      }
      return HttpAuth.NONE;
    }
    if (raw.basic() != null) {
      ConfigDocument.Basic basic = raw.basic();
      String username = basic.username();
      if (username == null || username.isEmpty() || username.contains(":")) {
        if (!problems.unreadable("http.auth.basic.username")) {
          problems.add("'http.auth.basic.username' is required, without ':'");
        }
      }
      Optional<Secret> password =
          secrets.read("http.auth.basic", "password", basic.passwordEnv(), basic.passwordFile());
      return password.isPresent() && username != null
          ? new HttpAuth.Basic(username, password.get())
          : HttpAuth.NONE;
    }
    ConfigDocument.Bearer bearer = raw.bearer();
    return secrets
        .read("http.auth.bearer", "token", bearer.tokenEnv(), bearer.tokenFile())
        .<HttpAuth>map(HttpAuth.Bearer::new)
        .orElse(HttpAuth.NONE);
  }
}
