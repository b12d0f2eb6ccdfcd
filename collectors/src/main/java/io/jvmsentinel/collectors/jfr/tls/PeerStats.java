package io.jvmsentinel.collectors.jfr.tls;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Mutable per-peer aggregates behind {@link TlsReport.Peer}; guarded by the handler's lock. */
final class PeerStats {

  // JSSE knows a handful of protocols and a few dozen suites; more distinct values is junk.
  private static final int MAX_VALUES = 16;

  private long handshakes;
  private long fullHandshakes;
  private final Map<String, Long> protocols = new HashMap<>();
  private final Map<String, Long> ciphers = new HashMap<>();
  private Instant lastSeen = Instant.EPOCH;

  void add(String protocol, String cipher, boolean full, Instant at) {
    handshakes++;
    if (full) {
      fullHandshakes++;
    }
    count(protocols, protocol);
    count(ciphers, cipher);
    if (at.isAfter(lastSeen)) {
      lastSeen = at;
    }
  }

  long handshakes() {
    return handshakes;
  }

  TlsReport.Peer report(String peer) {
    return new TlsReport.Peer(peer, handshakes, fullHandshakes, protocols, ciphers, lastSeen);
  }

  private static void count(Map<String, Long> counts, String value) {
    String key =
        counts.containsKey(value) || counts.size() < MAX_VALUES ? value : TlsHandshakeHandler.OTHER;
    counts.merge(key, 1L, Long::sum);
  }
}
