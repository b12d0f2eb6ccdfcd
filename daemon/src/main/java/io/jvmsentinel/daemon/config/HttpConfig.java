package io.jvmsentinel.daemon.config;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The HTTP endpoint that serves {@code /metrics}, the probes and the API.
 *
 * @param listen where to listen; default {@code 0.0.0.0:9404}
 * @param tls the server key store for HTTPS; default none (plain HTTP)
 * @param auth the credential {@code /metrics} and {@code /api/} require; default none. The probes
 *     {@code /health} and {@code /ready} stay open: kubelet probes cannot send credentials.
 * @param maskArguments the operator's patterns of secrets in target JVM arguments, masked in the
 *     API beyond the built-in rules; default none
 * @param showProperties the operator's patterns of {@code -D} property names whose values the API
 *     shows (through the value rules) beside the built-in allow-list; every other {@code -D} value
 *     is masked; default none
 * @param openMetrics whether {@code /metrics} is served without the credential when {@code auth} is
 *     set (a scraper that cannot send one); default false: with {@code auth}, only the probes are
 *     open
 * @param externalUrl where people reach this endpoint (through an ingress, say), without a trailing
 *     slash: alert notifications then link to the alert's status page; default none
 */
public record HttpConfig(
    HostPort listen,
    Optional<StoreFile> tls,
    HttpAuth auth,
    List<Pattern> maskArguments,
    List<Pattern> showProperties,
    boolean openMetrics,
    Optional<URI> externalUrl) {
  public static final HostPort DEFAULT_LISTEN = new HostPort("0.0.0.0", 9404);
  public static final HttpConfig DEFAULT = new HttpConfig(DEFAULT_LISTEN);

  public HttpConfig {
    maskArguments = List.copyOf(maskArguments);
    showProperties = List.copyOf(showProperties);
  }

  /** Plain HTTP without authentication, the compatible default. */
  public HttpConfig(HostPort listen) {
    this(listen, Optional.empty(), HttpAuth.NONE, List.of(), List.of(), false, Optional.empty());
  }

  /**
   * The {@code http} section with its TLS and authentication.
   *
   * @param listen {@code http.listen}, or the command line's {@code --listen}, which was read first
   */
  static HttpConfig read(ConfigNode s, HostPort listen) {
    StoreKeys tls = StoreKeys.read(s.section("tls"), "keyStore");
    ConfigNode auth = s.section("auth");
    ConfigNode basic = auth.section("basic");
    String username = basic.text("username");
    ConfigNode.SecretRef password = basic.secretRef("password");
    ConfigNode bearer = auth.section("bearer");
    ConfigNode.SecretRef token = bearer.secretRef("token");
    List<Pattern> maskArguments = s.listOf("maskArguments", ConfigNode::pattern);
    List<Pattern> showProperties = s.listOf("showProperties", ConfigNode::pattern);
    boolean openMetrics = s.bool("openMetrics", false);
    String externalUrl = s.text("externalUrl");
    return new HttpConfig(
        listen,
        tls.owner().present() ? tls.open(StoreKeys.Kind.KEY_STORE) : Optional.empty(),
        auth(auth, basic, username, password, bearer, token),
        patterns(maskArguments),
        patterns(showProperties),
        openMetrics,
        externalUrl(s, externalUrl));
  }

  // An unreadable pattern is null here; its problem is already reported.
  private static List<Pattern> patterns(List<Pattern> read) {
    return read == null ? List.of() : read.stream().filter(Objects::nonNull).toList();
  }

  /**
   * An absolute http(s) URL without query, fragment or user info: the daemon appends page paths to
   * it, and it goes into every notification, where a password must never travel.
   */
  private static Optional<URI> externalUrl(ConfigNode s, String text) {
    if (text == null || s.unreadable("externalUrl")) {
      return Optional.empty();
    }
    Optional<URI> url = ConfigNode.httpUrl(text);
    if (!s.check(
        url.isPresent()
            && url.get().getRawQuery() == null
            && url.get().getRawFragment() == null
            && url.get().getRawUserInfo() == null,
        "'http.externalUrl' must be an absolute http or https URL without query, fragment or"
            + " user info, such as https://sentinel.example.com/orders")) {
      return Optional.empty();
    }
    return Optional.of(URI.create(url.get().toString().replaceAll("/+$", "")));
  }

  private static HttpAuth auth(
      ConfigNode auth,
      ConfigNode basic,
      String username,
      ConfigNode.SecretRef password,
      ConfigNode bearer,
      ConfigNode.SecretRef token) {
    if (!auth.present() || auth.unreadable()) {
      return HttpAuth.NONE;
    }
    if (basic.present() == bearer.present()) {
      if (!auth.unreadable("basic") && !auth.unreadable("bearer")) {
        auth.check(
            false,
            "'http.auth' needs exactly one of 'basic' or 'bearer'"
                + (basic.present() ? "; both are set" : ""));
      }
      return HttpAuth.NONE;
    }
    if (basic.present()) {
      if (username == null || username.isEmpty() || username.contains(":")) {
        if (!basic.unreadable("username")) {
          basic.check(false, "'http.auth.basic.username' is required, without ':'");
        }
      }
      Optional<Secret> secret = password.read();
      return secret.isPresent() && username != null
          ? new HttpAuth.Basic(username, secret.get())
          : HttpAuth.NONE;
    }
    return token.read().<HttpAuth>map(HttpAuth.Bearer::new).orElse(HttpAuth.NONE);
  }
}
