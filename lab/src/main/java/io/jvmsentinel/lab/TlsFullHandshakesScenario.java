package io.jvmsentinel.lab;

/**
 * Incident 2: a client that never resumes a TLS session, so every request pays a full handshake
 * with certificate path validation ({@code jdk.X509Validation}). Mechanism: a fresh {@code
 * SSLContext} per connection, whose client session cache is new and empty, against the {@code
 * Connection: close} service. Plain {@code SSLSocket}s register no handshake listener, so unlike
 * {@code tls-listener-storm} no thread is started per request.
 */
final class TlsFullHandshakesScenario implements Scenario {

  static final int DEFAULT_RATE = 50;

  private final int rate;

  TlsFullHandshakesScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "tls-full-handshakes";
  }

  @Override
  public String description() {
    return "a new TLS connection and a fresh SSLContext per request, --rate per second (default "
        + DEFAULT_RATE
        + "): a full handshake every time";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    LabTls tls = LabTls.load();
    try (LabHttpsServer server = LabHttpsServer.start()) {
      log.onset("full-handshakes", "rate", rate, "port", server.port());
      RateLoop.run(
          rate,
          sequence ->
              TlsSocketClient.get(
                  tls.newClientContext(), server.port(), LabHttpsServer.CLOSE_PATH));
    }
  }
}
