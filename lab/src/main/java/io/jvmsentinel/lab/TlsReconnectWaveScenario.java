package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;

/**
 * A healthy client whose TLS sessions are lost once: {@code --threads} clients (default {@value
 * #DEFAULT_CLIENTS}), each with its own {@code SSLContext} as per-tenant clients with their own
 * trust have, share {@code --rate} new connections per second (default {@value #DEFAULT_RATE}) to
 * one peer; each resumes its own session. After {@code --pause} (default 60 s) the peer restarts: a
 * new server on the same port with a new {@code SSLContext}, so no session it issued before can be
 * resumed, and each client's next connection is a full handshake with certificate validation (all
 * of them within clients/rate seconds, then resumed again). A one-off wave of full handshakes, not
 * a client that never resumes ({@code tls-full-handshakes}). Onsets {@code resumed}, {@code
 * peer-restart}, then {@code resumed-again} once every client has reconnected.
 */
final class TlsReconnectWaveScenario implements Scenario {

  static final int DEFAULT_RATE = 40;
  static final int DEFAULT_CLIENTS = 80;
  static final Duration DEFAULT_PAUSE = Duration.ofSeconds(60);

  private final int rate;
  private final int clients;
  private final Duration pause;

  TlsReconnectWaveScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
    this.clients = options.threads(DEFAULT_CLIENTS);
    this.pause = options.pause(DEFAULT_PAUSE);
  }

  @Override
  public String name() {
    return "tls-reconnect-wave";
  }

  @Override
  public String description() {
    return "--threads TLS clients (default "
        + DEFAULT_CLIENTS
        + ") sharing --rate new connections/s (default "
        + DEFAULT_RATE
        + "), resumed; the peer restarts once after --pause (default 60s): one full handshake"
        + " per client, then resumed again";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    LabTls tls = LabTls.load();
    List<SSLContext> contexts = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      contexts.add(tls.newClientContext());
    }
    AtomicReference<LabHttpsServer> server = new AtomicReference<>(LabHttpsServer.start());
    int port = server.get().port();
    Thread traffic =
        LabThreads.daemon(
            "lab-tls-clients",
            () -> {
              try {
                RateLoop.run(
                    rate,
                    sequence ->
                        TlsSocketClient.get(
                            contexts.get((int) (sequence % clients)),
                            port,
                            LabHttpsServer.CLOSE_PATH));
              } catch (InterruptedException e) {
                // The scenario is over.
              }
            });
    traffic.start();
    try {
      log.onset("resumed", "clients", clients, "rate", rate, "port", port);
      Thread.sleep(pause.toMillis());
      server.get().close();
      server.set(LabHttpsServer.start(port));
      log.onset("peer-restart", "clients", clients, "port", port);
      // Every client connects again within clients/rate seconds; a second more for stragglers.
      Thread.sleep(clients * 1_000L / rate + 1_000);
      log.onset("resumed-again");
      traffic.join();
    } finally {
      traffic.interrupt();
      server.get().close();
    }
  }
}
