package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.util.concurrent.Semaphore;

/**
 * How many evidence snapshots are read from targets at once, over all targets ({@code
 * storage.maxConcurrentDumps}): a hundred targets alerting together must not copy a hundred
 * recordings in parallel, each through the network and onto the daemon's disk. The others wait on
 * their own target's dump thread, in arrival order, never on a session or stream thread.
 */
public final class DumpLimit {
  /** A read under the limit. */
  @FunctionalInterface
  interface Read<T> {
    T read() throws IOException;
  }

  private final Semaphore permits;

  public DumpLimit(int concurrent) {
    if (concurrent < 1) {
      throw new IllegalArgumentException("at least one dump at a time: " + concurrent);
    }
    this.permits = new Semaphore(concurrent, true);
  }

  /** Runs {@code read} once fewer than the limit run; interrupted: the daemon is stopping. */
  <T> T run(Read<T> read) throws IOException {
    try {
      permits.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for another target's snapshot to finish", e);
    }
    try {
      return read.read();
    } finally {
      permits.release();
    }
  }

  /** How many reads wait for their turn now. */
  int waiting() {
    return permits.getQueueLength();
  }
}
