package io.jvmsentinel.daemon.target;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.remote.JMXConnector;

/**
 * Runs a blocking connect with a deadline. JMX over RMI has no connect timeout of its own (an
 * unreachable host or a stopped target can block for minutes), so the attempt runs on a helper
 * thread; if the deadline passes, the caller gets a timeout and a connector that arrives late is
 * closed instead of leaked.
 */
final class TimeLimitedConnect {
  private static final ExecutorService CONNECT_THREADS =
      Executors.newCachedThreadPool(
          runnable -> {
            Thread thread = new Thread(runnable, "jmx-connect");
            thread.setDaemon(true);
            return thread;
          });

  interface BlockingConnect {
    JMXConnector connect() throws Exception;
  }

  private TimeLimitedConnect() {}

  static JMXConnector connect(BlockingConnect connect, Duration timeout, String what)
      throws IOException {
    CompletableFuture<JMXConnector> attempt =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return connect.connect();
              } catch (RuntimeException e) {
                throw e;
              } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
              }
            },
            CONNECT_THREADS);
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
