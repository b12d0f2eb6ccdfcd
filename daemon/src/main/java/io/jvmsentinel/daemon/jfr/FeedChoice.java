package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jmx.JvmIdentity;
import io.jvmsentinel.daemon.config.Durations;
import io.jvmsentinel.daemon.config.JfrConfig;
import java.time.Duration;

/**
 * Which feed a target gets, from {@code jfr.feed} and the target's Java version: a remote stream
 * ({@link StreamFeed}) or chunk reads ({@link ChunkFeed}). A version of 0 means unknown (then a
 * stream is tried). Pure.
 *
 * @param chunks whether events come from chunk reads
 * @param version the target's Java feature version, 0 when unknown
 */
record FeedChoice(boolean chunks, int version) {
  /** Remote streaming (JMX {@code FlightRecorderMXBean.openStream}) arrived in JDK 16. */
  static final int FIRST_STREAMING_JDK = 16;

  static FeedChoice of(JfrConfig.Feed feed, JvmIdentity jvm) {
    return of(feed, jvm == null ? 0 : jvm.featureVersion());
  }

  static FeedChoice of(JfrConfig.Feed feed, int version) {
    boolean chunks =
        feed == JfrConfig.Feed.CHUNKS || (feed == JfrConfig.Feed.AUTO && !streamable(version));
    return new FeedChoice(chunks, version);
  }

  private static boolean streamable(int version) {
    return version <= 0 || version >= FIRST_STREAMING_JDK;
  }

  /**
   * Whether a stream was asked for ({@code jfr.feed: stream}) from a JVM that has none: measured, a
   * JDK 11 target accepts a remote stream without error and never sends an event.
   */
  boolean streamOnTooOldJvm() {
    return !chunks && !streamable(version);
  }

  /** Why a stream on a JVM too old for it is not tried. */
  String tooOldReason() {
    return "the target runs Java "
        + version
        + "; remote JFR streaming needs Java "
        + FIRST_STREAMING_JDK
        + " or newer (jfr.feed: stream), so only JMX metrics are collected";
  }

  /** What {@code /api/v1/targets} says of the running feed. */
  String description(Duration chunkPeriod) {
    if (!chunks) {
      return "streaming";
    }
    return "reading the recording in chunks every "
        + Durations.format(chunkPeriod)
        + (version > 0 && version < FIRST_STREAMING_JDK
            ? " (Java " + version + " has no remote streaming)"
            : " (jfr.feed: chunks)");
  }

  /** What the start log line says of the feed. */
  String logName(Duration chunkPeriod) {
    return chunks ? "chunk reads every " + Durations.format(chunkPeriod) : "stream";
  }
}
