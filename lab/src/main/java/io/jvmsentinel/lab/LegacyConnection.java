package io.jvmsentinel.lab;

/**
 * A pooled connection of a driver written before virtual threads: its calls are {@code
 * synchronized} on the connection (as many JDBC drivers' are) and wait for the database holding
 * that monitor. On JDK 21 to 23 a virtual thread that blocks inside {@code synchronized} stays
 * pinned to its carrier for the whole call; from JDK 24 (JEP 491) it unmounts.
 *
 * <p>The connections are pooled, as a driver's are, and that matters: the monitor of a connection
 * made for one call does not escape it, so C2 elides its lock once the caller is compiled and
 * nothing pins (measured on JDK 21: half of such calls pinned over 10 s, against all of them from a
 * pool).
 */
final class LegacyConnection {
  /** How long the database takes to answer: above JFR's 20 ms pinned-event threshold. */
  static final long QUERY_MILLIS = 25;

  // Calls rotate through the pool: 20 a second, 25 ms each, never two on one connection at once.
  private static final LegacyConnection[] POOL = new LegacyConnection[64];

  static {
    for (int i = 0; i < POOL.length; i++) {
      POOL[i] = new LegacyConnection();
    }
  }

  /** The connection for the {@code n}th call. */
  static LegacyConnection pooled(long n) {
    return POOL[(int) (n % POOL.length)];
  }

  synchronized long execute(long request) throws InterruptedException {
    Thread.sleep(QUERY_MILLIS);
    return CpuWork.tiny(request);
  }
}
