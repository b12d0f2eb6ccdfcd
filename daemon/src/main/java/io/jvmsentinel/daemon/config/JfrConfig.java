package io.jvmsentinel.daemon.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Remote JFR streaming, for every target whose JVM offers it (JDK 16+).
 *
 * @param enabled false to collect JMX metrics only
 * @param maxAge age limit of the daemon's recording in the target's repository: if the daemon dies
 *     without closing its stream, the target keeps recording, and only these limits bound its disk
 * @param maxSizeMb size limit of that recording, in megabytes
 * @param stallTimeout a stream that delivers no flush for this long is closed and started again (a
 *     target that dies does not close a remote stream: it just goes silent)
 */
public record JfrConfig(boolean enabled, Duration maxAge, long maxSizeMb, Duration stallTimeout) {
  public static final Duration MIN_MAX_AGE = Duration.ofMinutes(1);
  public static final long MIN_MAX_SIZE_MB = 4;
  public static final long MAX_MAX_SIZE_MB = 4096;
  public static final Duration MIN_STALL_TIMEOUT = Duration.ofSeconds(5);

  public static final JfrConfig DEFAULT =
      new JfrConfig(true, Duration.ofMinutes(5), 32, Duration.ofSeconds(60));

  public JfrConfig {
    Objects.requireNonNull(maxAge, "maxAge");
    Objects.requireNonNull(stallTimeout, "stallTimeout");
  }
}
