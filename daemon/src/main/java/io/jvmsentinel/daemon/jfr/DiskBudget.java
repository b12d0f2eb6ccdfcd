package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.config.StorageConfig;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's one disk budget ({@code storage.maxDiskMb}), shared by every target: {@code
 * storage.streamsPercent} of it for the targets' JFR feeds, split evenly over the targets watched
 * now, the rest for evidence snapshots. A target's share replaces {@code jfr.maxSizeMb} when it is
 * smaller: it bounds what one chunk read, one evidence read and the daemon's recordings on the
 * target may hold. Shares are recomputed as targets come and go: a feed or a read that starts later
 * gets the new share.
 */
public final class DiskBudget {
  private static final Logger log = LoggerFactory.getLogger(DiskBudget.class);
  private static final long MB = 1024 * 1024;

  /** The least a target gets, whatever the count: a smaller recording holds no useful window. */
  static final long MIN_STREAM_BYTES = JfrConfig.MIN_MAX_SIZE_MB * MB;

  private final long totalBytes;
  private final long streamsBytes;
  private final long maxStreamBytes;
  private final AtomicInteger targets = new AtomicInteger();

  public DiskBudget(StorageConfig storage, JfrConfig jfr) {
    this(storage.maxDiskBytes(), storage.streamsPercent(), jfr.maxSizeMb() * MB);
  }

  DiskBudget(long totalBytes, int streamsPercent, long maxStreamBytes) {
    this.totalBytes = totalBytes;
    this.streamsBytes = totalBytes * streamsPercent / 100;
    this.maxStreamBytes = maxStreamBytes;
  }

  /** A budget as large as the configured limits, whatever the target count (tests, tools). */
  public static DiskBudget unbounded(JfrConfig jfr) {
    return new DiskBudget(1L << 50, 50, jfr.maxSizeMb() * MB);
  }

  /**
   * A target's share of {@code streamsBytes} among {@code targets}: an even split, at most {@code
   * maxStreamBytes} ({@code jfr.maxSizeMb}), at least {@link #MIN_STREAM_BYTES}.
   */
  static long streamShare(long streamsBytes, int targets, long maxStreamBytes) {
    long even = streamsBytes / Math.max(1, targets);
    return Math.max(MIN_STREAM_BYTES, Math.min(maxStreamBytes, even));
  }

  /** What one target's JFR data may take now: its recordings' size, one read's bytes. */
  public long streamBytesPerTarget() {
    return streamShare(streamsBytes, targets.get(), maxStreamBytes);
  }

  /** The part of the budget for evidence snapshots: the finished ones and those being written. */
  public long snapshotBytes() {
    return totalBytes - streamsBytes;
  }

  /**
   * The most one evidence snapshot writes while it is made: the target's read (up to its share) and
   * the filtered copy beside it, before the read is deleted.
   */
  public long bytesPerDump() {
    return 2 * streamBytesPerTarget();
  }

  /** A target is watched; its stream session calls this once. */
  void targetStarted() {
    int now = targets.incrementAndGet();
    if ((long) now * MIN_STREAM_BYTES > streamsBytes
        && (long) (now - 1) * MIN_STREAM_BYTES <= streamsBytes) {
      log.warn(
          "{} targets need at least {} MB each for JFR data, more than storage.maxDiskMb gives"
              + " the feeds ({} MB of {} MB); raise storage.maxDiskMb (and the emptyDir"
              + " behind it) or lower discovery.maxTargets",
          now,
          MIN_STREAM_BYTES / MB,
          streamsBytes / MB,
          totalBytes / MB);
    }
  }

  /** A target is no longer watched. */
  void targetStopped() {
    targets.decrementAndGet();
  }

  /** One target's place in the budget, from its session's start to its close. */
  interface Membership {
    /** Leaves the budget; only the first call counts. */
    void leave();
  }

  /** Counts a target in (its stream session, once) until it leaves. */
  Membership join() {
    targetStarted();
    AtomicBoolean left = new AtomicBoolean();
    return () -> {
      if (left.compareAndSet(false, true)) {
        targetStopped();
      }
    };
  }

  /** How many targets share the budget now. */
  public int targets() {
    return targets.get();
  }
}
