package io.jvmsentinel.daemon.target;

import io.jvmsentinel.daemon.support.DaemonThreads;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon helper thread for blocking work that talks to a target (connect, close), with a
 * bounded queue: a hung target can hold this one thread, never grow the daemon's thread count. Work
 * beyond the queue is rejected ({@link java.util.concurrent.RejectedExecutionException}). The
 * thread ends after a while idle and starts again on demand.
 */
final class HelperThread {
  private static final long IDLE_SECONDS = 30;

  private HelperThread() {}

  /**
   * @param queue tasks that may wait while one runs (at least 1: a thread that just finished a task
   *     is briefly not ready for the next, and a direct hand-off would then reject it)
   */
  static ThreadPoolExecutor withQueue(String name, int queue) {
    BlockingQueue<Runnable> waiting = new ArrayBlockingQueue<>(queue);
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            1, 1, IDLE_SECONDS, TimeUnit.SECONDS, waiting, DaemonThreads.named(name));
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }
}
