package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * POSTs one JSON document and turns the response into success, a retryable {@link IOException} or a
 * {@link RejectedException}. Messages name the URL as the sink shows it, never the URL itself: URLs
 * carry tokens in their path (Slack) or query.
 */
final class JsonPoster {
  private static final int BODY_EXCERPT = 200;

  private final HttpClient client;
  private final Duration timeout;

  JsonPoster(HttpClient client, Duration timeout) {
    this.client = client;
    this.timeout = timeout;
  }

  /**
   * The client every sink shares: a connect timeout, and no redirects at all, so a notification
   * (and the token in it) never goes to a host other than the configured one.
   */
  static HttpClient newClient(Duration connectTimeout) {
    return HttpClient.newBuilder()
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /**
   * @param shown how messages name the URL (see {@link SafeUrls})
   */
  void post(URI url, String shown, Map<String, String> headers, JsonNode body) throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("User-Agent", "jvm-sentinel")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
    headers.forEach(request::setHeader);
    HttpResponse<String> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while posting to " + shown);
    } catch (IOException e) {
      // The JDK's messages can quote the URI; keep the type and the shown URL only.
      throw new IOException(
          "POST " + shown + " failed: " + e.getClass().getSimpleName() + detail(e), e);
    }
    check(response, shown);
  }

  private static String detail(IOException e) {
    String message = e.getMessage();
    return message == null || message.contains("://") ? "" : " (" + message + ")";
  }

  private static void check(HttpResponse<String> response, String shown) throws IOException {
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return;
    }
    String what = "POST " + shown + " answered HTTP " + status + excerpt(response.body());
    if (status >= 300 && status < 400) {
      throw new RejectedException(
          what
              + "; redirects are not followed (to "
              + response.headers().firstValue("Location").map(SafeUrls::hostOf).orElse("nowhere")
              + "), configure the final URL");
    }
    if (status == 408 || status == 425 || status == 429 || status >= 500) {
      throw new IOException(what);
    }
    throw new RejectedException(what);
  }

  private static String excerpt(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    String oneLine = body.strip().replaceAll("\\s+", " ");
    return ": "
        + (oneLine.length() > BODY_EXCERPT ? oneLine.substring(0, BODY_EXCERPT) + "…" : oneLine);
  }
}
