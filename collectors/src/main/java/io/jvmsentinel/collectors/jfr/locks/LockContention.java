package io.jvmsentinel.collectors.jfr.locks;

import java.util.List;

/**
 * Lock contention within one detection interval: the unit detection keeps per tick, so an alert
 * names the locks and code of its own window. Only contended waits count (monitor enters, parks on
 * locks; see {@link ContentionKind#contended}), each at least its kind's threshold long.
 *
 * @param blockedNanos time threads spent blocked in the interval, all locks together
 * @param locks the locks threads blocked on longest, longest first
 */
public record LockContention(long blockedNanos, List<Lock> locks) {
  public static final LockContention EMPTY = new LockContention(0, List.of());

  public LockContention {
    locks = List.copyOf(locks);
  }

  /**
   * Blocked time on one lock class.
   *
   * @param kind {@code monitor-enter} or {@code park}
   * @param className the monitor's class, or the park blocker's (e.g. {@code
   *     java.util.concurrent.locks.ReentrantLock$NonfairSync})
   * @param blockedNanos time threads spent blocked on it in the interval
   * @param events blocked waits recorded
   * @param threads distinct threads that blocked on it (at most {@link
   *     ContentionTable#MAX_THREADS})
   * @param blockedSites where threads blocked, by blocked time, with a sample stack each
   * @param owners the threads that held it, by the blocked time of the waiters they released it to
   *     (monitors only: JFR's {@code previousOwner}; parks name no owner)
   */
  public record Lock(
      String kind,
      String className,
      long blockedNanos,
      long events,
      int threads,
      List<Site> blockedSites,
      List<Site> owners) {
    public Lock {
      blockedSites = List.copyOf(blockedSites);
      owners = List.copyOf(owners);
    }
  }

  /**
   * A code site (or an owner thread name) and the time attributed to it.
   *
   * @param site {@code Class.method}, or a thread name pattern for owners
   * @param nanos time attributed in the interval
   * @param stack a sample stack, {@code Class.method:line}, top first; empty for owners
   */
  public record Site(String site, long nanos, List<String> stack) {
    public Site {
      stack = List.copyOf(stack);
    }
  }
}
