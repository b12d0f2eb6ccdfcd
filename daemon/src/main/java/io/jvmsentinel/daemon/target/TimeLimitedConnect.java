package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.remote.JMXConnector;

/**
 * Runs a blocking connect with a deadline. JMX over RMI has no connect timeout of its own (an
 * unreachable host or a stopped target can block for minutes), so the attempt runs on a helper
 * thread; if the deadline passes, the caller gets a timeout and a connector that arrives late is
 * closed instead of leaked.
 *
 * <p>One helper thread per target (per instance): while a timed-out attempt still hangs on it, the
 * next attempt fails at once instead of starting another thread, so a target that hangs every
 * connect holds one thread, not one per retry.
 */
final class TimeLimitedConnect {
  private final ExecutorService connectThread;
  // Held from submission until the connect returns. The thread itself may still be on its way
  // back to the pool then, so the executor queues one task, and this permit, not the executor,
  // decides whether an attempt is still running.
  private final Semaphore running = new Semaphore(1);

  interface BlockingConnect {
    JMXConnector connect() throws Exception;
  }

  /**
   * @param threadName the helper thread's name, e.g. {@code jmx-connect-orders}
   */
  TimeLimitedConnect(String threadName) {
    this.connectThread = HelperThread.withQueue(threadName, 1);
  }

  JMXConnector connect(BlockingConnect connect, Duration timeout, String what) throws IOException {
    if (!running.tryAcquire()) {
      throw new IOException(
          "connect to "
              + what
              + " not tried: the previous attempt, timed out, is still waiting on the target",
          new java.net.SocketTimeoutException("connect timed out"));
    }
    CompletableFuture<JMXConnector> attempt;
    try {
      attempt =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return connect.connect();
                } catch (RuntimeException e) {
                  throw e;
                } catch (Exception e) {
                  throw new java.util.concurrent.CompletionException(e);
                } finally {
                  running.release();
                }
              },
              connectThread);
    } catch (RejectedExecutionException e) {
      running.release();
      throw new IOException("connect to " + what + " not tried: the connect thread is shut down");
    }
    try {
      return attempt.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      attempt.thenAccept(TimeLimitedConnect::closeQuietly);
      throw new IOException(
          "connect to " + what + " timed out after " + timeout.toMillis() + " ms",
          new java.net.SocketTimeoutException("connect timed out"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      attempt.thenAccept(TimeLimitedConnect::closeQuietly);
      throw new InterruptedIOException("interrupted while connecting to " + what);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof SecurityException security) {
        throw security;
      }
      throw new IOException("connect to " + what + " failed: " + cause, cause);
    }
  }

  static void closeQuietly(JMXConnector connector) {
    if (connector == null) {
      return;
    }
    try {
      connector.close();
    } catch (IOException | RuntimeException e) {
      // Closing a connection to a dead target fails; there is nothing left to release.
    }
  }
}
