package io.jvmsentinel.collectors.jmx;

import java.util.List;

/**
 * Who holds the monitors threads are blocked on, from one thread dump of the target.
 *
 * @param atMillis when the dump was read, daemon epoch milliseconds
 * @param monitors the monitors with blocked threads, most blocked threads first
 */
public record LockHolders(long atMillis, List<Monitor> monitors) {
  public LockHolders {
    monitors = List.copyOf(monitors);
  }

  /**
   * One monitor with threads blocked on it.
   *
   * @param className the monitor's class
   * @param blockedThreads threads blocked entering it
   * @param blockedSites where they block, {@code Class.method}, most common first
   * @param holder the holding thread's name; null when the dump did not name one
   * @param holderState the holder's thread state (RUNNABLE while it does I/O, TIMED_WAITING asleep)
   * @param enteredAt where the holder locked it ({@code Class.method}, the frame of {@code
   *     lockedStackFrame}); null when unknown
   * @param holderStack the holder's stack, {@code Class.method:line}, top first: what it is doing
   *     while it holds the lock
   */
  public record Monitor(
      String className,
      int blockedThreads,
      List<String> blockedSites,
      String holder,
      String holderState,
      String enteredAt,
      List<String> holderStack) {
    public Monitor {
      blockedSites = List.copyOf(blockedSites);
      holderStack = List.copyOf(holderStack);
    }
  }
}
