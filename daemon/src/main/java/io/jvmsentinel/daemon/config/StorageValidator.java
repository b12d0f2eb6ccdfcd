package io.jvmsentinel.daemon.config;

/** Checks the {@code storage} section and applies its defaults. */
final class StorageValidator {
  private final Problems problems;

  StorageValidator(Problems problems) {
    this.problems = problems;
  }

  StorageConfig validate(ConfigDocument.Storage raw) {
    StorageConfig d = StorageConfig.DEFAULT;
    if (raw == null) {
      return d;
    }
    long maxDiskMb = raw.maxDiskMb() != null ? raw.maxDiskMb() : d.maxDiskMb();
    int streamsPercent = raw.streamsPercent() != null ? raw.streamsPercent() : d.streamsPercent();
    int dumps =
        raw.maxConcurrentDumps() != null ? raw.maxConcurrentDumps() : d.maxConcurrentDumps();
    if (maxDiskMb < StorageConfig.MIN_MAX_DISK_MB) {
      problems.add(
          "'storage.maxDiskMb' ("
              + maxDiskMb
              + ") must be at least "
              + StorageConfig.MIN_MAX_DISK_MB
              + "; give the daemon's /tmp (the chart's emptyDir) room for its JFR chunks and"
              + " snapshots");
      maxDiskMb = d.maxDiskMb();
    }
    if (streamsPercent < StorageConfig.MIN_STREAMS_PERCENT
        || streamsPercent > StorageConfig.MAX_STREAMS_PERCENT) {
      problems.add(
          "'storage.streamsPercent' ("
              + streamsPercent
              + ") must be between "
              + StorageConfig.MIN_STREAMS_PERCENT
              + " and "
              + StorageConfig.MAX_STREAMS_PERCENT);
      streamsPercent = d.streamsPercent();
    }
    if (dumps < 1 || dumps > StorageConfig.MAX_MAX_CONCURRENT_DUMPS) {
      problems.add(
          "'storage.maxConcurrentDumps' ("
              + dumps
              + ") must be between 1 and "
              + StorageConfig.MAX_MAX_CONCURRENT_DUMPS);
      dumps = d.maxConcurrentDumps();
    }
    return new StorageConfig(maxDiskMb, streamsPercent, dumps);
  }
}
