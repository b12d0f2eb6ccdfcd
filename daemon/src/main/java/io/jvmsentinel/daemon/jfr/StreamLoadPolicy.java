package io.jvmsentinel.daemon.jfr;

import java.time.Instant;
import java.util.Optional;

/**
 * What the stream may cost the target, decided once a second from the thread start rate: whether to
 * pause the stream for a heavy storm ({@link StormPause}) and whether {@code jdk.ThreadStart}
 * carries stack traces now ({@link StackSampling}). Pure: the caller passes the time and the counts
 * and acts on the answers; either part is absent when configured off (or, for stacks, when no
 * handler wants them).
 *
 * <p>Which count: while the stream runs and counts starts itself, that count (no remote call);
 * otherwise the target's JMX {@code TotalStartedThreadCount}. The two counters differ, so a switch
 * restarts the storm rate.
 */
final class StreamLoadPolicy {
  /** Where the start count comes from this second. */
  enum StartsFrom {
    /** Nothing to decide: no storm pause configured, or no stream and no pause. */
    NOTHING,
    STREAM,
    TARGET
  }

  private final StormPause stormPause;
  private final StackSampling stackSampling;
  private final boolean streamCountsStarts;
  private StartsFrom lastSource = StartsFrom.NOTHING;
  private boolean stacksOn = true;

  /**
   * @param stormPause null when storm pauses are off
   * @param stackSampling null when stack sampling is off
   * @param streamCountsStarts whether the stream has a handler that counts thread starts
   */
  StreamLoadPolicy(StormPause stormPause, StackSampling stackSampling, boolean streamCountsStarts) {
    this.stormPause = stormPause;
    this.stackSampling = stackSampling;
    this.streamCountsStarts = streamCountsStarts;
  }

  /** Which count {@link #storm} needs now, given whether the stream is up. */
  StartsFrom startsFrom(boolean streaming) {
    if (stormPause == null || (!streaming && !stormPause.paused())) {
      return StartsFrom.NOTHING;
    }
    return streaming && streamCountsStarts ? StartsFrom.STREAM : StartsFrom.TARGET;
  }

  /**
   * Feeds this second's start count from {@code source} (as {@link #startsFrom} said; {@code
   * started} is ignored for NOTHING); returns what to do with the stream.
   */
  StormPause.Action storm(Instant now, StartsFrom source, long started, boolean streaming) {
    if (stormPause == null) {
      return StormPause.Action.NONE;
    }
    if (source != lastSource) {
      lastSource = source;
      stormPause.restartRate();
    }
    if (source == StartsFrom.NOTHING) {
      stormPause.idle();
      return StormPause.Action.NONE;
    }
    return stormPause.update(now, started, streaming);
  }

  /** Whether the stream is closed for a storm. */
  boolean stormPaused() {
    return stormPause != null && stormPause.paused();
  }

  /** The start rate the storm pause last measured, starts/s (NaN when unknown). */
  double stormRate() {
    return stormPause == null ? Double.NaN : stormPause.rate();
  }

  /**
   * Feeds the stream's running count of starts; returns the new stack-trace setting when it must
   * change on the live stream, empty when it stays.
   */
  Optional<Boolean> stacks(Instant now, long streamStarts) {
    if (stackSampling == null) {
      return Optional.empty();
    }
    boolean wanted = stackSampling.update(now, streamStarts);
    if (wanted == stacksOn) {
      return Optional.empty();
    }
    stacksOn = wanted;
    return Optional.of(wanted);
  }

  /** Whether stacks are recorded only in sampling windows now. */
  boolean sampling() {
    return stackSampling != null && stackSampling.sampling();
  }

  /** A new stream records every stack: sampling starts over. */
  void streamStarted() {
    stacksOn = true;
    if (stackSampling != null) {
      stackSampling.reset();
    }
  }

  /** The connection went away: a new target may answer next, so storm history goes too. */
  void reset() {
    streamStarted();
    lastSource = StartsFrom.NOTHING;
    if (stormPause != null) {
      stormPause.reset();
    }
  }
}
