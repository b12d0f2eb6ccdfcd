package io.jvmsentinel.daemon.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for the daemon's endpoints, with timeouts on every request. */
public final class DaemonHttp {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final String base;

  public DaemonHttp(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  public HttpResponse<String> get(String path) {
    return get(path, null);
  }

  public HttpResponse<String> get(String path, String accept) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(5)).GET();
    if (accept != null) {
      request.header("Accept", accept);
    }
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("GET " + base + path + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public PrometheusText scrape() {
    HttpResponse<String> response = get("/metrics");
    if (response.statusCode() != 200) {
      throw new IllegalStateException("/metrics answered " + response.statusCode());
    }
    return PrometheusText.parse(response.body());
  }
}
