package io.jvmsentinel.daemon.target;

import io.jvmsentinel.daemon.support.DaemonThreads;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Marks a target down when a poll overruns the call timeout, with one thread for every session that
 * shares it (the daemon passes one to all its sessions). The RMI timeouts alone are not enough: the
 * JMX client retries a failed call and re-checks the connection, so a hung target surfaces as an
 * exception only after several timeouts (8 s measured for a 2 s timeout). An alarm only raises a
 * flag; the session thread acts once its poll returns. The thread runs while any session is
 * attached, so nobody has to close the watchdog. One instance, wired explicitly: the daemon makes
 * one for all its sessions; nothing about it is static.
 */
public final class PollWatchdog {
  /** A poll's alarm, cancelled when the poll returns in time. */
  interface Alarm {
    void cancel();
  }

  private final Supplier<ScheduledExecutorService> threads;
  private ScheduledExecutorService thread; // guarded by this
  private final Set<TargetSession> sessions = new HashSet<>(); // guarded by this

  /** A watchdog on its own daemon thread, {@code poll-watchdog}. */
  public PollWatchdog() {
    this(() -> Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("poll-watchdog")));
  }

  /**
   * A watchdog whose alarms run on the executor {@code threads} makes when the first session
   * attaches (tests pass one that runs when they move the clock).
   */
  PollWatchdog(Supplier<ScheduledExecutorService> threads) {
    this.threads = threads;
  }

  /** {@code session} starts using this watchdog. */
  synchronized void attach(TargetSession session) {
    sessions.add(session);
    if (thread == null) {
      thread = threads.get();
    }
  }

  /** {@code session} closed (once or more): the thread ends with the last session. */
  synchronized void detach(TargetSession session) {
    sessions.remove(session);
    if (sessions.isEmpty() && thread != null) {
      thread.shutdownNow();
      thread = null;
    }
  }

  /** Whether the thread runs (some session is attached). */
  synchronized boolean running() {
    return thread != null;
  }

  /** Runs {@code overran} after {@code timeout} unless the alarm is cancelled first. */
  synchronized Alarm arm(Duration timeout, Runnable overran) {
    if (thread == null) {
      return () -> {}; // No session attached: nothing polls that could be watched.
    }
    ScheduledFuture<?> alarm = thread.schedule(overran, timeout.toMillis(), TimeUnit.MILLISECONDS);
    return () -> alarm.cancel(false);
  }
}
