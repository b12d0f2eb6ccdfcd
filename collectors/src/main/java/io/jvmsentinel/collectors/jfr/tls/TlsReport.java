package io.jvmsentinel.collectors.jfr.tls;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the target's TLS handshakes looked like since the daemon started watching: totals and the
 * busiest peers. A snapshot, safe to hand to other threads.
 *
 * @param handshakes all handshakes seen, client and server side, including untracked peers
 * @param fullHandshakes handshakes that validated a certificate chain (not resumed)
 * @param peers the busiest peers, most handshakes first
 */
public record TlsReport(long handshakes, long fullHandshakes, List<Peer> peers) {

  public TlsReport {
    peers = List.copyOf(peers);
  }

  /** Share of handshakes that were full ones, 0 when there were none. */
  public double fullShare() {
    return share(fullHandshakes, handshakes);
  }

  /**
   * One peer ({@code peerHost:peerPort}). Counts start when the peer became tracked; a peer that
   * drops out of the tracked set and comes back starts again.
   *
   * @param protocols handshakes by protocol version (a few values, the rest as {@code other})
   * @param ciphers handshakes by cipher suite (a few values, the rest as {@code other})
   * @param lastSeen when the latest handshake with this peer ended, on the target's clock
   */
  public record Peer(
      String peer,
      long handshakes,
      long fullHandshakes,
      Map<String, Long> protocols,
      Map<String, Long> ciphers,
      Instant lastSeen) {

    public Peer {
      protocols = Map.copyOf(protocols);
      ciphers = Map.copyOf(ciphers);
    }

    /**
     * Share of this peer's handshakes that were full ones: near 1 means the target re-handshakes
     * with this peer every time. Only client-side handshakes can be full (a server validates no
     * chain unless it asks for client certificates), so inbound peers read 0.
     */
    public double fullShare() {
      return share(fullHandshakes, handshakes);
    }
  }

  private static double share(long part, long whole) {
    return whole == 0 ? 0 : (double) part / whole;
  }
}
