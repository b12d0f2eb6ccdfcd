package io.jvmsentinel.collectors.jfr.locks;

import java.time.Duration;

/**
 * The JFR events of threads that wait for something, with the threshold each is recorded above.
 *
 * <p>Thresholds: JFR's own profile.jfc records monitor enters and parks from 10 ms and waits from
 * 10 ms, default.jfc from 20 ms. Enters and parks at 10 ms catch contention that costs a service
 * throughput (a request blocked 10 ms is already visible in its latency) while a healthy target,
 * whose lock holds last microseconds, emits none; waits are idle time, not contention, so they are
 * recorded from 20 ms. Their cost is measured in bench/ (docs/performance.md).
 */
public enum ContentionKind {
  /** Blocked entering a {@code synchronized} monitor another thread holds. */
  MONITOR_ENTER("jdk.JavaMonitorEnter", "monitorClass", "monitor-enter", Duration.ofMillis(10)),
  /** Parked in {@code LockSupport.park}: a java.util.concurrent lock, condition, queue or latch. */
  THREAD_PARK("jdk.ThreadPark", "parkedClass", "park", Duration.ofMillis(10)),
  /** In {@code Object.wait}: waiting to be notified, idle rather than contended. */
  MONITOR_WAIT("jdk.JavaMonitorWait", "monitorClass", "wait", Duration.ofMillis(20));

  private final String eventName;
  private final String classField;
  private final String tag;
  private final Duration threshold;

  ContentionKind(String eventName, String classField, String tag, Duration threshold) {
    this.eventName = eventName;
    this.classField = classField;
    this.tag = tag;
    this.threshold = threshold;
  }

  public String eventName() {
    return eventName;
  }

  /** The event field naming the class of the monitor or of the park blocker. */
  String classField() {
    return classField;
  }

  /** The {@code kind} tag value. */
  public String tag() {
    return tag;
  }

  public Duration threshold() {
    return threshold;
  }

  /**
   * Whether time spent this way on {@code className} is lock contention (a thread that wants to run
   * but cannot), as opposed to waiting for work or a signal. Every monitor enter is; a park is when
   * its blocker is a lock (ReentrantLock and ReentrantReadWriteLock syncs, StampedLock, Semaphore),
   * not a condition, queue, latch or future; a wait never is.
   */
  public boolean contended(String className) {
    return switch (this) {
      case MONITOR_ENTER -> true;
      case MONITOR_WAIT -> false;
      case THREAD_PARK -> isLock(className);
    };
  }

  private static boolean isLock(String className) {
    if (className == null || className.endsWith("$ConditionObject")) {
      return false;
    }
    return className.startsWith("java.util.concurrent.locks.ReentrantLock")
        || className.startsWith("java.util.concurrent.locks.ReentrantReadWriteLock")
        || className.startsWith("java.util.concurrent.locks.StampedLock")
        || className.startsWith("java.util.concurrent.Semaphore");
  }
}
