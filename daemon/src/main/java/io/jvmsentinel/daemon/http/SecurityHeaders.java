package io.jvmsentinel.daemon.http;

import org.eclipse.jetty.http.HttpFields;

/** Headers on every response, route answers and server errors alike. */
final class SecurityHeaders {
  private SecurityHeaders() {}

  static void addTo(HttpFields.Mutable headers) {
    // A browser must take text/plain and JSON as what they say, never sniff them into HTML.
    headers.put("X-Content-Type-Options", "nosniff");
    // Metrics and status are live: no cache may answer for the daemon.
    headers.put("Cache-Control", "no-store");
  }
}
