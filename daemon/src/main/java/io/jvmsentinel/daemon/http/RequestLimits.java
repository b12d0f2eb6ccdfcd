package io.jvmsentinel.daemon.http;

import io.jvmsentinel.collectors.text.SafeText;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rejects requests a read-only metrics endpoint never needs, before any route sees them: long URIs,
 * large headers, a body, and paths that are not plain ({@code ..}, encoded slashes, control
 * characters, also percent-encoded ones such as {@code %0a}). Jetty has already refused malformed
 * request lines, ambiguous URIs and heads larger than the two limits together.
 */
final class RequestLimits {
  static final int MAX_URI_LENGTH = 2048;
  static final int MAX_HEADER_BYTES = 8192;
  static final int MAX_HEADERS = 100;

  private RequestLimits() {}

  /** A 4xx response for a request outside the limits, else empty. */
  static Optional<HttpEndpoint.Response> check(HttpEndpoint.Request request) {
    String rawUri =
        request.rawPath() + (request.rawQuery() == null ? "" : "?" + request.rawQuery());
    if (rawUri.length() > MAX_URI_LENGTH) {
      return reject(414, "URI longer than " + MAX_URI_LENGTH + " characters");
    }
    if (headerBytes(request.headers()) > MAX_HEADER_BYTES) {
      return reject(431, "request headers larger than " + MAX_HEADER_BYTES + " bytes");
    }
    long count = request.headers().values().stream().mapToLong(List::size).sum();
    if (count > MAX_HEADERS) {
      return reject(431, "more than " + MAX_HEADERS + " request headers");
    }
    String length = request.header("Content-Length");
    if (request.header("Transfer-Encoding") != null
        || (length != null && !"0".equals(length.trim()))) {
      return reject(400, "a GET request has no body");
    }
    String rawPath = request.rawPath();
    if (rawPath == null
        || !plainPath(rawPath)
        || !SafeText.of(request.path()).equals(request.path())) {
      return reject(400, "malformed path");
    }
    return Optional.empty();
  }

  private static boolean plainPath(String rawPath) {
    if (!rawPath.startsWith("/") || rawPath.contains("//") || rawPath.contains("\\")) {
      return false;
    }
    String lower = rawPath.toLowerCase(java.util.Locale.ROOT);
    // Encoded separators, dots and NUL would let a path mean something else after decoding.
    if (lower.contains("%2f")
        || lower.contains("%5c")
        || lower.contains("%2e")
        || lower.contains("%00")) {
      return false;
    }
    for (String segment : rawPath.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        return false;
      }
    }
    return rawPath.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
  }

  private static long headerBytes(Map<String, List<String>> headers) {
    long total = 0;
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      for (String value : header.getValue()) {
        total += header.getKey().length() + 2 + value.length() + 2;
      }
    }
    return total;
  }

  private static Optional<HttpEndpoint.Response> reject(int status, String why) {
    return Optional.of(HttpEndpoint.Response.text(status, why + "\n"));
  }
}
