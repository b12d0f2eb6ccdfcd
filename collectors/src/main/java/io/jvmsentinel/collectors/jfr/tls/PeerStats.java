package io.jvmsentinel.collectors.jfr.tls;

import io.jvmsentinel.collectors.support.CardinalityCap;
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
  private final CardinalityCap protocolValues = new CardinalityCap(MAX_VALUES);
  private final CardinalityCap cipherValues = new CardinalityCap(MAX_VALUES);
  private Instant lastSeen = Instant.EPOCH;

  void add(String protocol, String cipher, boolean full, Instant at) {
    handshakes++;
    if (full) {
      fullHandshakes++;
    }
    protocols.merge(protocolValues.value(protocol), 1L, Long::sum);
    ciphers.merge(cipherValues.value(cipher), 1L, Long::sum);
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
}
