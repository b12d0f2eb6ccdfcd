package io.jvmsentinel.daemon.web;

import io.jvmsentinel.daemon.http.HttpEndpoint;

/**
 * The status page's Content-Security-Policy: scripts, styles and requests only from the daemon
 * itself. Thread names, stack frames and TLS peers come from the target and are
 * attacker-influenced; the page renders them as text, and should one ever slip through as markup,
 * the browser still runs no inline script, loads nothing from elsewhere and sends nothing anywhere.
 */
final class ContentSecurity {
  static final String POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src"
          + " 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors"
          + " 'none'";

  private ContentSecurity() {}

  static HttpEndpoint.Response apply(HttpEndpoint.Response response) {
    return response
        .withHeader("Content-Security-Policy", POLICY)
        .withHeader("Referrer-Policy", "no-referrer")
        .withHeader("X-Frame-Options", "DENY");
  }
}
