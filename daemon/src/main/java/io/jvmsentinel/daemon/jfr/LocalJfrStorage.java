package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.config.StorageConfig;
import java.nio.file.Path;

/**
 * What every target's stream session shares on the daemon's side: where chunks are written, the one
 * disk budget, the global limit on evidence dumps.
 */
public record LocalJfrStorage(StreamDirectories directories, DiskBudget budget, DumpLimit dumps) {
  /** The daemon's storage as configured, chunks under {@code tmp}. */
  public static LocalJfrStorage of(Path tmp, StorageConfig storage, JfrConfig jfr) {
    return new LocalJfrStorage(
        new StreamDirectories(tmp),
        new DiskBudget(storage, jfr),
        new DumpLimit(storage.maxConcurrentDumps()));
  }

  /** Chunks under {@code tmp}, limits as large as {@code jfr} allows (tests). */
  public static LocalJfrStorage unbounded(Path tmp, JfrConfig jfr) {
    return new LocalJfrStorage(
        new StreamDirectories(tmp),
        DiskBudget.unbounded(jfr),
        new DumpLimit(StorageConfig.DEFAULT.maxConcurrentDumps()));
  }
}
