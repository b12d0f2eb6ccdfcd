package io.jvmsentinel.lab;

import javax.net.ssl.SSLContext;

/**
 * The healthy reference for the TLS scenarios: the same new-connection-per-request traffic as
 * {@code tls-full-handshakes}, but through one shared {@code SSLContext}, so after the first
 * request every handshake resumes the cached session (no certificate validation) and, with plain
 * {@code SSLSocket}s, no thread is started per request.
 */
final class TlsResumedScenario implements Scenario {

  static final int DEFAULT_RATE = 50;

  private final int rate;

  TlsResumedScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "tls-resumed";
  }

  @Override
  public String description() {
    return "a new TLS connection per request through one shared SSLContext, --rate per second"
        + " (default "
        + DEFAULT_RATE
        + "): resumed sessions";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    SSLContext client = LabTls.load().newClientContext();
    try (LabHttpsServer server = LabHttpsServer.start()) {
      log.onset("resumed", "rate", rate, "port", server.port());
      RateLoop.run(
          rate, sequence -> TlsSocketClient.get(client, server.port(), LabHttpsServer.CLOSE_PATH));
    }
  }
}
