package io.jvmsentinel.daemon.support;

import java.util.concurrent.ThreadFactory;

/**
 * How the daemon makes its threads: daemon threads (none may keep the process alive; shutdown is
 * explicit) with a name that says what they do. The names are part of the daemon's behaviour:
 * thread dumps, the tests and the daemon's own footprint checks recognise its threads by them, so
 * callers keep theirs unchanged.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** A factory whose every thread is a daemon thread named {@code name}. */
  public static ThreadFactory named(String name) {
    return task -> unstarted(name, task);
  }

  /** A daemon thread named {@code name} that will run {@code task}, not started yet. */
  public static Thread unstarted(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }

  /** Starts a daemon thread named {@code name} running {@code task}. */
  public static Thread start(String name, Runnable task) {
    Thread thread = unstarted(name, task);
    thread.start();
    return thread;
  }
}
