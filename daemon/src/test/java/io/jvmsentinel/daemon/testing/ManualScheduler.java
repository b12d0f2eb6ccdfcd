package io.jvmsentinel.daemon.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ScheduledExecutorService} that runs nothing on its own: tasks run on the test's thread
 * when the test moves the {@link MutableClock} with {@link #advance} or calls {@link #runDue}, in
 * the order they are due. Time-driven code (backoff, watchdogs, periodic polls) is then tested
 * without sleeping and without a race. A future's {@code get} first runs what is due, so code that
 * submits a task and waits for it (a {@code close} on the owner's thread) works unchanged.
 */
public final class ManualScheduler extends AbstractExecutorService
    implements ScheduledExecutorService {
  private final MutableClock clock;
  private final PriorityQueue<Task<?>> queue =
      new PriorityQueue<>(
          Comparator.comparing((Task<?> t) -> t.due).thenComparingLong(t -> t.order));
  private long seq;
  private boolean shutdown;

  public ManualScheduler(MutableClock clock) {
    this.clock = clock;
  }

  /** Runs every task due now, including those that become due by running others. */
  public void runDue() {
    Task<?> next;
    while ((next = nextDue(clock.instant())) != null) {
      next.runOnce();
    }
  }

  /**
   * Moves the clock {@code by} in steps, running each task at the time it is due (the clock reads
   * its due time while it runs), then leaves the clock at the end (or later, if a task moved it).
   */
  public void advance(Duration by) {
    Instant end = clock.instant().plus(by);
    Task<?> next;
    while ((next = nextDue(end)) != null) {
      if (next.due.isAfter(clock.instant())) {
        clock.set(next.due);
      }
      next.runOnce();
    }
    if (end.isAfter(clock.instant())) {
      clock.set(end); // A task may have moved the clock on (a second scheduler on it): never back.
    }
  }

  /** When the next task is due; null when nothing is queued. */
  public Duration nextDelay() {
    Task<?> head = queue.peek();
    return head == null ? null : Duration.between(clock.instant(), head.due);
  }

  /** How many tasks wait (periodic ones count once). */
  public int queued() {
    return queue.size();
  }

  private Task<?> nextDue(Instant until) {
    Task<?> head = queue.peek();
    if (head == null || head.due.isAfter(until)) {
      return null;
    }
    return queue.poll();
  }

  private <T> Task<T> enqueue(Callable<T> callable, long delayNanos, long periodNanos) {
    if (shutdown) {
      throw new RejectedExecutionException("shut down");
    }
    Task<T> task = new Task<>(callable, clock.instant().plusNanos(delayNanos), periodNanos);
    queue.add(task);
    return task;
  }

  @Override
  public void execute(Runnable command) {
    enqueue(Executors.callable(command), 0, 0);
  }

  @Override
  public Future<?> submit(Runnable task) {
    return enqueue(Executors.callable(task), 0, 0);
  }

  @Override
  public <T> Future<T> submit(Callable<T> task) {
    return enqueue(task, 0, 0);
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return enqueue(Executors.callable(command), unit.toNanos(delay), 0);
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return enqueue(callable, unit.toNanos(delay), 0);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    return enqueue(Executors.callable(command), unit.toNanos(initialDelay), unit.toNanos(period));
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    return enqueue(Executors.callable(command), unit.toNanos(initialDelay), unit.toNanos(delay));
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> dropped = new ArrayList<>(queue);
    queue.clear();
    return dropped;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return shutdown;
  }

  /** One queued task; a periodic one is queued again after each run. */
  private final class Task<T> implements ScheduledFuture<T>, Runnable {
    private final Callable<T> callable;
    private final long periodNanos;
    private final long order = seq++;
    private Instant due;
    private boolean done;
    private boolean cancelled;
    private T result;
    private Throwable failure;

    Task(Callable<T> callable, Instant due, long periodNanos) {
      this.callable = callable;
      this.due = due;
      this.periodNanos = periodNanos;
    }

    @Override
    public void run() {
      runOnce();
    }

    void runOnce() {
      try {
        result = callable.call();
        if (periodNanos > 0 && !cancelled && !shutdown) {
          due = clock.instant().plusNanos(periodNanos);
          queue.add(this);
          return;
        }
      } catch (Throwable e) {
        failure = e; // A periodic task that throws is not run again, as in the JDK.
      }
      done = true;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(Duration.between(clock.instant(), due));
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      if (done) {
        return false;
      }
      cancelled = true;
      done = true;
      queue.remove(this);
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return done;
    }

    @Override
    public T get() throws ExecutionException {
      runDue();
      if (!done) {
        throw new IllegalStateException("not due yet: advance the clock first");
      }
      if (failure != null) {
        throw new ExecutionException(failure);
      }
      return result;
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws ExecutionException, TimeoutException {
      runDue();
      if (!done) {
        throw new TimeoutException("not due yet: advance the clock first");
      }
      return get();
    }
  }
}
