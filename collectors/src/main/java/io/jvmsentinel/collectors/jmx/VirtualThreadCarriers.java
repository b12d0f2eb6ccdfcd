package io.jvmsentinel.collectors.jmx;

import java.io.IOException;
import java.util.Arrays;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.openmbean.CompositeData;

/**
 * What the carrier threads of a target's virtual threads (JDK 21+) are doing, from one {@code
 * getThreadInfo} of the scheduler's worker threads with their top frame. A carrier that has a
 * virtual thread mounted shows {@code jdk.internal.vm.Continuation.run} on top (the virtual
 * thread's own frames are not the carrier's); in state RUNNABLE that virtual thread runs, in any
 * other state it is blocked while mounted: pinned, keeping the carrier from every other virtual
 * thread. An idle carrier waits in {@code ForkJoinPool.awaitWork} and is counted as neither.
 *
 * <p>A pin is recorded by JFR only when it ends ({@code jdk.VirtualThreadPinned}), so this reading
 * is what shows carriers pinned for good, as in a deadlock (measured on JDK 21.0.8: every carrier
 * WAITING under {@code Continuation.run}).
 */
final class VirtualThreadCarriers {
  /**
   * The scheduler's workers are a ForkJoinPool's; the target names its threads, so at most this
   * many are read.
   */
  static final int MAX_READ = 256;

  private static final Pattern WORKER = Pattern.compile("ForkJoinPool-\\d+-worker-\\d+");
  private static final String[] GET_THREAD_INFO_WITH_DEPTH = {
    long[].class.getName(), int.class.getName()
  };
  private static final String CONTINUATION = "jdk.internal.vm.Continuation";

  /**
   * Carriers with a virtual thread mounted, by what it does.
   *
   * @param running mounted and running
   * @param pinned mounted and blocked (waiting, parked, or blocked on a monitor)
   */
  record Carriers(int running, int pinned) {
    static final Carriers NONE = new Carriers(0, 0);

    boolean any() {
      return running + pinned > 0;
    }
  }

  private VirtualThreadCarriers() {}

  /**
   * Reads the carriers among {@code ids}, whose {@code infos} (the same order, no stacks) give
   * their names; {@link Carriers#NONE} when no thread is named as a ForkJoinPool worker.
   */
  static Carriers read(MBeanServerConnection mbeans, long[] ids, CompositeData[] infos)
      throws IOException, JMException {
    long[] workers = workers(ids, infos);
    if (workers.length == 0) {
      return Carriers.NONE;
    }
    Object read =
        mbeans.invoke(
            ObjectNames.THREADING,
            "getThreadInfo",
            new Object[] {workers, 1},
            GET_THREAD_INFO_WITH_DEPTH);
    return read instanceof CompositeData[] withTop ? count(withTop) : Carriers.NONE;
  }

  private static long[] workers(long[] ids, CompositeData[] infos) {
    long[] workers = new long[Math.min(ids.length, MAX_READ)];
    int n = 0;
    for (int i = 0; i < ids.length && i < infos.length && n < MAX_READ; i++) {
      if (infos[i] != null
          && infos[i].get("threadName") instanceof String name
          && WORKER.matcher(name).matches()) {
        workers[n++] = ids[i];
      }
    }
    return Arrays.copyOf(workers, n);
  }

  /** Mounted carriers by state; threads that ended since (null entries) are skipped. */
  static Carriers count(CompositeData[] infos) {
    int running = 0;
    int pinned = 0;
    for (CompositeData info : infos) {
      if (info != null && mounted(info) && info.get("threadState") instanceof String state) {
        if (state.equals(Thread.State.RUNNABLE.name())) {
          running++;
        } else {
          pinned++;
        }
      }
    }
    return new Carriers(running, pinned);
  }

  private static boolean mounted(CompositeData info) {
    return info.get("stackTrace") instanceof CompositeData[] stack
        && stack.length > 0
        && stack[0] != null
        && CONTINUATION.equals(stack[0].get("className"))
        && "run".equals(stack[0].get("methodName"));
  }
}
