package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

/**
 * Incident 1 (JDK-8246039): an {@link HttpsURLConnection} client calling a service that answers
 * every request with {@code Connection: close}. Each request opens a new TLS connection, and
 * because HttpsURLConnection registers a {@code HandshakeCompletedListener}, the JDK's {@code
 * TransportContext.finishHandshake} starts a new {@code HandshakeCompletedNotify-Thread} per
 * handshake: one thread per request. Sessions are resumed (one shared client context), so the
 * handshakes themselves are cheap: the storm is the threads.
 */
final class TlsListenerStormScenario implements Scenario {

  static final int DEFAULT_RATE = 100;

  private final int rate;

  TlsListenerStormScenario(LabOptions options) {
    this(options.rate(DEFAULT_RATE));
  }

  TlsListenerStormScenario(int rate) {
    this.rate = rate;
  }

  /** Client threads sharing the rate: a service calls its peer from several request threads. */
  private static final int CLIENTS = 4;

  @Override
  public String name() {
    return "tls-listener-storm";
  }

  @Override
  public String description() {
    return "HttpsURLConnection requests to a Connection: close service, --rate per second (default "
        + DEFAULT_RATE
        + "): one handshake notify thread per request (JDK-8246039)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    try (LabHttpsServer server = LabHttpsServer.start()) {
      SSLSocketFactory sockets = LabTls.load().newClientContext().getSocketFactory();
      URL url = url(server.url(LabHttpsServer.CLOSE_PATH));
      log.onset("storm", "rate", rate, "port", server.port());
      RateLoop.runParallel(rate, CLIENTS, sequence -> call(url, sockets));
    }
  }

  static URL url(String spec) {
    try {
      return new URL(spec);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One request, read to the end; the creator site of the notify threads is inside connect. */
  static void call(URL url, SSLSocketFactory sockets) throws IOException {
    HttpsURLConnection connection = (HttpsURLConnection) url.openConnection();
    connection.setSSLSocketFactory(sockets);
    connection.setConnectTimeout(5_000);
    connection.setReadTimeout(5_000);
    try (InputStream in = connection.getInputStream()) {
      in.readAllBytes();
    }
  }
}
