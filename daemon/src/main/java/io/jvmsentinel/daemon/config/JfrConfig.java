package io.jvmsentinel.daemon.config;

import java.time.Duration;

/**
 * Remote JFR streaming, for every target whose JVM offers it (JDK 16+).
 *
 * @param enabled false to collect JMX metrics only
 * @param maxAge age limit of the daemon's recording in the target's repository: if the daemon dies
 *     without closing its stream, the target keeps recording, and only these limits bound its disk
 * @param maxSizeMb size limit of that recording, in megabytes; also bounds the daemon's local copy
 *     while it keeps one for evidence snapshots
 * @param stallTimeout a stream that delivers no flush for this long is closed and started again (a
 *     target that dies does not close a remote stream: it just goes silent)
 * @param maxLag an event of a hot type (thread starts and ends) that arrives later than this after
 *     it happened is only counted, not processed, so the stream catches up after an overload
 * @param stackSamplingAboveRate above this many thread starts/s, {@code jdk.ThreadStart} stack
 *     traces are recorded only in sampling windows; 0 records them always
 * @param stackSamplingWindow how long each sampling window lasts
 * @param stackSamplingEvery one sampling window starts this often
 * @param stormPauseAboveRate above this many thread starts/s, the stream is closed once it has
 *     captured {@code stormPauseCapture} of the storm, because a running JFR recording alone costs
 *     such a target much of its CPU; 0 never pauses
 * @param stormPauseCapture how long the stream runs into a heavy storm (and after it) before it
 *     pauses (resumes)
 * @param stormPauseProbeEvery while a paused storm lasts, the stream reopens for one capture this
 *     often, so its evidence stays current
 * @param simulatedEventCost for tests and capacity measurements only: busy work added to each fully
 *     processed event, to shrink the daemon's capacity; zero in production
 * @param feed how events come from the target: a remote stream (JDK 16+), or the daemon's recording
 *     read in chunks over JMX (JDK 11, OpenJDK 8u262+), or whichever the target offers
 * @param chunkPeriod how often a chunk feed reads the target's recording: events reach the rules
 *     about this much later than from a stream
 */
public record JfrConfig(
    boolean enabled,
    Duration maxAge,
    long maxSizeMb,
    Duration stallTimeout,
    Duration maxLag,
    double stackSamplingAboveRate,
    Duration stackSamplingWindow,
    Duration stackSamplingEvery,
    double stormPauseAboveRate,
    Duration stormPauseCapture,
    Duration stormPauseProbeEvery,
    Duration simulatedEventCost,
    Feed feed,
    Duration chunkPeriod) {
  public static final Duration MIN_MAX_AGE = Duration.ofMinutes(1);
  public static final long MIN_MAX_SIZE_MB = 4;
  public static final long MAX_MAX_SIZE_MB = 4096;
  public static final Duration MIN_STALL_TIMEOUT = Duration.ofSeconds(5);

  /** Events reach a remote stream up to about 2.6 s after they happen even when all is well. */
  public static final Duration MIN_MAX_LAG = Duration.ofSeconds(3);

  public static final Duration MIN_SAMPLING_WINDOW = Duration.ofSeconds(1);
  public static final Duration MAX_SIMULATED_EVENT_COST = Duration.ofMillis(100);

  /**
   * ThreadStorm fires about 4 to 7 s after onset; the capture must cover it and the stream start.
   */
  public static final Duration MIN_STORM_PAUSE_CAPTURE = Duration.ofSeconds(10);

  /** {@code jfr.feed}: how events come from a target. */
  public enum Feed {
    /**
     * A stream from JDK 16+ targets, chunks read over JMX from older ones with a FlightRecorder.
     */
    AUTO,
    /** Remote streaming only: older targets get JMX metrics only. */
    STREAM,
    /** The recording read in chunks over JMX, on every JDK (JDK 16+ too: for tests and tuning). */
    CHUNKS
  }

  /**
   * Measured on a JDK 11 target: a read every 2 s costs it a 15-25 ms copy and a safepoint of 0.1-1
   * ms; events then reach the rules 2-3 s after they happen (docs/performance.md).
   */
  public static final Duration DEFAULT_CHUNK_PERIOD = Duration.ofSeconds(2);

  public static final Duration MIN_CHUNK_PERIOD = Duration.ofSeconds(1);
  public static final Duration MAX_CHUNK_PERIOD = Duration.ofSeconds(10);

  public static final JfrConfig DEFAULT =
      new JfrConfig(true, Duration.ofMinutes(5), 32, Duration.ofSeconds(60));

  /** The stream and its limits; overload handling, stack sampling, storm pause at defaults. */
  public JfrConfig(boolean enabled, Duration maxAge, long maxSizeMb, Duration stallTimeout) {
    this(
        enabled,
        maxAge,
        maxSizeMb,
        stallTimeout,
        Duration.ofSeconds(4),
        200,
        Duration.ofSeconds(1),
        Duration.ofSeconds(10),
        2000,
        Duration.ofSeconds(15),
        Duration.ofMinutes(10),
        Duration.ZERO,
        Feed.AUTO,
        DEFAULT_CHUNK_PERIOD);
  }

  /** Whether thread-start stack traces switch to sampling windows at high start rates. */
  public boolean stackSamplingEnabled() {
    return stackSamplingAboveRate > 0;
  }

  /** Whether a heavy thread storm closes the stream for a while. */
  public boolean stormPauseEnabled() {
    return stormPauseAboveRate > 0;
  }

  /** The {@code jfr} section; absent keys keep their defaults. */
  static JfrConfig read(ConfigNode s) {
    JfrConfig d = DEFAULT;
    JfrConfig c =
        new JfrConfig(
            s.bool("enabled", d.enabled()),
            s.duration("maxAge", d.maxAge()),
            s.integer("maxSizeMb", d.maxSizeMb()),
            s.duration("stallTimeout", d.stallTimeout()),
            s.duration("maxLag", d.maxLag()),
            s.decimal("stackSamplingAboveRate", d.stackSamplingAboveRate()),
            s.duration("stackSamplingWindow", d.stackSamplingWindow()),
            s.duration("stackSamplingEvery", d.stackSamplingEvery()),
            s.decimal("stormPauseAboveRate", d.stormPauseAboveRate()),
            s.duration("stormPauseCapture", d.stormPauseCapture()),
            s.duration("stormPauseProbeEvery", d.stormPauseProbeEvery()),
            s.duration("simulatedEventCost", d.simulatedEventCost()),
            s.oneOf(
                s.text("feed"),
                Feed.values(),
                d.feed(),
                text ->
                    "'jfr.feed' must be 'auto' (a stream from JDK 16+ targets, chunks read over JMX"
                        + " from older ones), 'stream' or 'chunks', got '%s'".formatted(text)),
            s.duration("chunkPeriod", d.chunkPeriod()));
    Duration chunks = c.chunkPeriod();
    s.atLeast("maxAge", c.maxAge(), MIN_MAX_AGE, "");
    s.between("maxSizeMb", c.maxSizeMb(), MIN_MAX_SIZE_MB, MAX_MAX_SIZE_MB, "");
    s.atLeast(
        "stallTimeout",
        c.stallTimeout(),
        MIN_STALL_TIMEOUT,
        " (the target flushes events about once a second)");
    s.check(
        chunks.compareTo(MIN_CHUNK_PERIOD) >= 0 && chunks.compareTo(MAX_CHUNK_PERIOD) <= 0,
        "'jfr.chunkPeriod' (%s) must be between %s (each read ends a chunk on the target) and %s"
            + " (events would reach the rules too late)",
        chunks,
        MIN_CHUNK_PERIOD,
        MAX_CHUNK_PERIOD);
    s.atLeast(
        "maxLag",
        c.maxLag(),
        MIN_MAX_LAG,
        " (events reach a remote stream up to about 2.6 s after they happen, so a smaller"
            + " bound would drop events even when the daemon keeps up)");
    rate(s, "stackSamplingAboveRate", c.stackSamplingAboveRate(), "0 records stacks always");
    Duration window = c.stackSamplingWindow();
    s.atLeast(
        "stackSamplingWindow",
        window,
        MIN_SAMPLING_WINDOW,
        " (the daemon switches settings once a second)");
    s.check(
        c.stackSamplingEvery().compareTo(window.multipliedBy(2)) >= 0,
        "'jfr.stackSamplingEvery' (%s) must be at least twice 'jfr.stackSamplingWindow' (%s), or"
            + " sampling would save nothing",
        c.stackSamplingEvery(),
        window);
    s.check(
        c.simulatedEventCost().compareTo(MAX_SIMULATED_EVENT_COST) <= 0,
        "'jfr.simulatedEventCost' (%s) must be at most %s (it exists only to measure overload"
            + " behaviour)",
        c.simulatedEventCost(),
        MAX_SIMULATED_EVENT_COST);
    rate(s, "stormPauseAboveRate", c.stormPauseAboveRate(), "0 never pauses");
    Duration capture = c.stormPauseCapture();
    s.atLeast(
        "stormPauseCapture",
        capture,
        MIN_STORM_PAUSE_CAPTURE,
        " (the stream must run long enough for the storm to be detected and its creator named)");
    s.check(
        c.stormPauseProbeEvery().compareTo(capture.multipliedBy(4)) >= 0,
        "'jfr.stormPauseProbeEvery' (%s) must be at least four times 'jfr.stormPauseCapture' (%s),"
            + " or the pause would spare the target little",
        c.stormPauseProbeEvery(),
        capture);
    return c;
  }

  private static void rate(ConfigNode s, String key, double rate, String zero) {
    s.check(
        rate >= 0 && !Double.isInfinite(rate),
        "'jfr.%s' (%s) must be a thread start rate of 0 or more per second (%s)",
        key,
        rate,
        zero);
  }
}
