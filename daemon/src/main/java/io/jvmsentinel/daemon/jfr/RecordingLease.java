package io.jvmsentinel.daemon.jfr;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code duration} lease of one of the daemon's recordings on a target ({@link
 * TargetRecording.Lease}): renewed while the daemon runs, so the recording of a daemon that died
 * stops on its own. Used from one thread.
 */
final class RecordingLease {
  private final TargetFlightRecorder recorder;
  private final long id;
  private final TargetRecording.Lease lease;
  private final long openedNanos;
  private long renewedNanos;

  /** {@code openedNanos}: before the recording was created (its duration counts from its start). */
  RecordingLease(
      TargetFlightRecorder recorder, long id, TargetRecording.Lease lease, long openedNanos) {
    this.recorder = recorder;
    this.id = id;
    this.lease = lease;
    this.openedNanos = openedNanos;
    this.renewedNanos = openedNanos;
  }

  /**
   * Extends the lease when due: the recording then stops a lease's length from now at the earliest.
   * The duration counts from the recording's start, which came after {@code openedNanos}.
   */
  void renewIfDue(long nowNanos) {
    if (nowNanos - renewedNanos < lease.renewEvery().toNanos()) {
      return;
    }
    Duration ran = Duration.ofNanos(nowNanos - openedNanos);
    recorder.setOptions(id, Map.of("duration", seconds(ran.plus(lease.length()))));
    renewedNanos = nowNanos;
  }

  static String seconds(Duration duration) {
    return TimeUnit.NANOSECONDS.toSeconds(duration.toNanos() + 999_999_999) + " s";
  }
}
