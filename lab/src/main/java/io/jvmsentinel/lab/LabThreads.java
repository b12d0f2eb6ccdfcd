package io.jvmsentinel.lab;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How the lab makes its threads: daemon threads (the scenario's duration, not its threads, ends the
 * lab) with a name the tests and the daemon's reports show. Threads are handed back unstarted:
 * callers start them, so a thread start's stack names the scenario's own code (the creator site the
 * daemon reports and the tests assert), never this class.
 */
final class LabThreads {
  private LabThreads() {}

  /** A daemon thread named {@code name} that will run {@code task}, not started. */
  static Thread daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }

  /** A factory of daemon threads all named {@code name}. */
  static ThreadFactory named(String name) {
    return task -> daemon(name, task);
  }

  /** A factory of daemon threads named {@code prefix} and a count from 1. */
  static ThreadFactory numbered(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> daemon(prefix + count.incrementAndGet(), task);
  }
}
