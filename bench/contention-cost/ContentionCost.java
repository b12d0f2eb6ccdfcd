import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Requests/s of 16 threads: contended (one shared lock, 1 ms held per 3rd request) or uncontended
 * (own locks). Optional: every DUMP_EVERY_MS, the daemon's lock-holder dump (LockHolderPoller:
 * Threading dumpAllThreads(lockedMonitors=true, lockedSynchronizers=false) through the MBean
 * server, so the ThreadInfos are converted to CompositeData as for a remote call, minus RMI), with
 * IDLE extra parked threads so the dump walks a service-sized thread list. Prints requests/s, then
 * (when dumping) "dumps=N median_ms=X max_ms=Y".
 *   ContentionCost contended|uncontended SECONDS [DUMP_EVERY_MS [IDLE]]
 */
public class ContentionCost {
  public static void main(String[] args) throws Exception {
    boolean contended = args[0].equals("contended");
    long seconds = Long.parseLong(args[1]);
    long dumpEvery = args.length > 2 ? Long.parseLong(args[2]) : 0;
    int idle = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    CountDownLatch never = new CountDownLatch(1);
    for (int i = 0; i < idle; i++) {
      Thread t = new Thread(() -> parkDeep(20, never));
      t.setDaemon(true);
      t.start();
    }
    Object shared = new Object();
    LongAdder done = new LongAdder();
    Thread[] ts = new Thread[16];
    for (int i = 0; i < ts.length; i++) {
      Object own = new Object();
      Object lock = contended ? shared : own;
      ts[i] = new Thread(() -> {
        long n = 0;
        while (!Thread.currentThread().isInterrupted()) {
          synchronized (lock) {
            if (++n % 3 == 0) { long end = System.nanoTime() + 1_000_000; while (System.nanoTime() < end) {} }
          }
          long end = System.nanoTime() + 200_000; while (System.nanoTime() < end) {}
          done.increment();
        }
      });
      ts[i].setDaemon(true);
      ts[i].start();
    }
    Thread.sleep(2000);
    long[] dumpNanos = new long[(int) (seconds * 1000 / Math.max(1, dumpEvery)) + 2];
    int dumps = 0;
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName threading = new ObjectName(ManagementFactory.THREAD_MXBEAN_NAME);
    long before = done.sum();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    if (dumpEvery > 0) {
      while (System.nanoTime() < end && dumps < dumpNanos.length) {
        long start = System.nanoTime();
        server.invoke(threading, "dumpAllThreads", new Object[] {true, false}, new String[] {"boolean", "boolean"});
        dumpNanos[dumps++] = System.nanoTime() - start;
        Thread.sleep(dumpEvery);
      }
    }
    long left = end - System.nanoTime();
    if (left > 0) {
      Thread.sleep(left / 1_000_000);
    }
    System.out.println((done.sum() - before) / seconds);
    if (dumps > 0) {
      long[] sorted = Arrays.copyOf(dumpNanos, dumps);
      Arrays.sort(sorted);
      System.out.printf("dumps=%d median_ms=%.2f max_ms=%.2f%n", dumps, sorted[dumps / 2] / 1e6, sorted[dumps - 1] / 1e6);
    }
    System.exit(0);
  }

  /** A parked thread with a stack of some depth, as a service's idle pool threads have. */
  private static void parkDeep(int depth, CountDownLatch never) {
    if (depth > 0) {
      parkDeep(depth - 1, never);
      return;
    }
    try {
      never.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
