package io.jvmsentinel.daemon.config;

/**
 * The daemon's one disk budget, shared by every target: JFR chunks on their way to the handlers and
 * the evidence reads and snapshots of alerts (the {@code storage} section).
 *
 * @param maxDiskMb what the daemon may write in all, in megabytes; sized for the node agent's 2 GiB
 *     {@code /tmp} emptyDir, with room left for the alert state file and the JVM's own files
 * @param streamsPercent the part of the budget for the targets' JFR feeds, split evenly over the
 *     targets watched (each target's {@code jfr.maxSizeMb} is lowered to its share); the rest is
 *     for evidence snapshots, finished and being written
 * @param maxConcurrentDumps how many evidence snapshots are read from targets at once, over all
 *     targets; the others wait their turn
 */
public record StorageConfig(long maxDiskMb, int streamsPercent, int maxConcurrentDumps) {
  public static final long MIN_MAX_DISK_MB = 64;
  public static final int MIN_STREAMS_PERCENT = 10;
  public static final int MAX_STREAMS_PERCENT = 90;
  public static final int MAX_MAX_CONCURRENT_DUMPS = 16;

  /** 1.5 GiB of the node agent's 2 GiB emptyDir; half for feeds, two dumps at a time. */
  public static final StorageConfig DEFAULT = new StorageConfig(1536, 50, 2);

  public long maxDiskBytes() {
    return maxDiskMb * 1024 * 1024;
  }

  /** The {@code storage} section; absent keys keep their defaults. */
  static StorageConfig read(ConfigNode s) {
    StorageConfig d = DEFAULT;
    long maxDiskMb = s.integer("maxDiskMb", d.maxDiskMb());
    long streamsPercent = s.integer("streamsPercent", d.streamsPercent());
    long dumps = s.integer("maxConcurrentDumps", d.maxConcurrentDumps());
    return new StorageConfig(
        s.check(
                maxDiskMb >= MIN_MAX_DISK_MB,
                "'storage.maxDiskMb' (%d) must be at least %d; give the daemon's /tmp (the chart's"
                    + " emptyDir) room for its JFR chunks and snapshots",
                maxDiskMb,
                MIN_MAX_DISK_MB)
            ? maxDiskMb
            : d.maxDiskMb(),
        s.between("streamsPercent", streamsPercent, MIN_STREAMS_PERCENT, MAX_STREAMS_PERCENT, "")
            ? (int) streamsPercent
            : d.streamsPercent(),
        s.between("maxConcurrentDumps", dumps, 1, MAX_MAX_CONCURRENT_DUMPS, "")
            ? (int) dumps
            : d.maxConcurrentDumps());
  }
}
