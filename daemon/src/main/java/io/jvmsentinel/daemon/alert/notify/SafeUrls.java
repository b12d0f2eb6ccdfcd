package io.jvmsentinel.daemon.alert.notify;

import java.net.URI;

/** URLs as logs may show them: no user info, no query, no fragment; optionally no path. */
final class SafeUrls {
  private SafeUrls() {}

  /** {@code https://host:8443/path}: for URLs whose path is not a secret. */
  static String withPath(URI url) {
    return origin(url) + (url.getRawPath() == null ? "" : url.getRawPath());
  }

  /** {@code https://hooks.slack.com/…}: for URLs whose path is the secret. */
  static String withoutPath(URI url) {
    return origin(url) + "/…";
  }

  /** The host of a URL given as text (a Location header), or "an invalid URL". */
  static String hostOf(String url) {
    try {
      String host = URI.create(url).getHost();
      return host == null ? "a relative URL" : host;
    } catch (IllegalArgumentException e) {
      return "an invalid URL";
    }
  }

  private static String origin(URI url) {
    return url.getScheme()
        + "://"
        + url.getHost()
        + (url.getPort() == -1 ? "" : ":" + url.getPort());
  }
}
