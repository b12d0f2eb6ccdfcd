package io.jvmsentinel.daemon.jfr;

import java.util.Locale;

/** What became of an alert's snapshot of a target, for {@code jvm_sentinel_jfr_evidence_*}. */
public enum SnapshotOutcome {
  WRITTEN,
  EMPTY,
  FAILED,
  /** Skipped before any read: the disk budget had no room for it ({@code storage.maxDiskMb}). */
  NO_SPACE;

  String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
