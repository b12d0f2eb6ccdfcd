package io.jvmsentinel.daemon.target;

import io.jvmsentinel.collectors.jmx.JvmIdentity;
import java.time.Instant;

/**
 * What the daemon knows about one target right now, for {@code /ready} and the API.
 *
 * @param since when the target last went up or down
 * @param lastError why the last connection attempt failed or was lost; null when none
 * @param identity the connected (or last connected) JVM; null before the first connection
 * @param lastFailure when the daemon last found the target unreachable while it is down: the
 *     connection lost, the latest failed connect attempt, or now while a poll is overdue; null
 *     while up. Between reconnect attempts (backoff up to {@code reconnectMaxDelay}) nobody looks,
 *     so how long the target has been down is known only up to this moment
 */
public record TargetStatus(
    String name,
    String address,
    boolean up,
    Instant since,
    String lastError,
    long connectAttempts,
    JvmIdentity identity,
    Instant lastFailure) {}
