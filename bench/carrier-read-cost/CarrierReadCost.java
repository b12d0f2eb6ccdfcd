import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * Cost of the carrier read that ThreadPoller adds to each metrics poll (VirtualThreadCarriers), side
 * by side with the states read it follows: getThreadInfo of all thread ids without stacks, then
 * getThreadInfo(ForkJoinPool workers, depth 1). In-process through the platform MBean server (the
 * CompositeData conversion of a remote call, without RMI), on a JVM running 1,000 virtual threads
 * a second (each sleeping 5 ms) beside PLATFORM parked threads 20 frames deep.
 *   java CarrierReadCost PLATFORM READS   -> "states_us=<median> carriers_us=<median> workers=<n>"
 */
public class CarrierReadCost {
  private static final Pattern WORKER = Pattern.compile("ForkJoinPool-\\d+-worker-\\d+");

  public static void main(String[] args) throws Exception {
    int platform = Integer.parseInt(args[0]);
    int reads = Integer.parseInt(args[1]);
    for (int i = 0; i < platform; i++) {
      Thread parked = new Thread(() -> deep(20));
      parked.setDaemon(true);
      parked.start();
    }
    Thread feeder = new Thread(CarrierReadCost::feed);
    feeder.setDaemon(true);
    feeder.start();
    Thread.sleep(2_000);
    MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
    ObjectName threading = new ObjectName(ManagementFactory.THREAD_MXBEAN_NAME);
    long[] states = new long[reads];
    long[] carriers = new long[reads];
    int workers = 0;
    for (int r = 0; r < reads; r++) {
      long start = System.nanoTime();
      long[] ids = (long[]) mbeans.getAttribute(threading, "AllThreadIds");
      CompositeData[] infos =
          (CompositeData[])
              mbeans.invoke(
                  threading, "getThreadInfo", new Object[] {ids}, new String[] {"[J"});
      long statesRead = System.nanoTime();
      long[] found = new long[ids.length];
      workers = 0;
      for (int i = 0; i < infos.length; i++) {
        if (infos[i] != null && WORKER.matcher((String) infos[i].get("threadName")).matches()) {
          found[workers++] = ids[i];
        }
      }
      mbeans.invoke(
          threading,
          "getThreadInfo",
          new Object[] {Arrays.copyOf(found, workers), 1},
          new String[] {"[J", "int"});
      states[r] = statesRead - start;
      carriers[r] = System.nanoTime() - statesRead;
      Thread.sleep(5);
    }
    System.out.printf(
        "states_us=%d carriers_us=%d workers=%d%n",
        median(states) / 1_000,
        median(carriers) / 1_000,
        workers);
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static void deep(int depth) {
    if (depth == 0) {
      LockSupport.park();
    } else {
      deep(depth - 1);
    }
  }

  private static void feed() {
    while (true) {
      for (int i = 0; i < 10; i++) {
        Thread.ofVirtual().start(CarrierReadCost::request);
      }
      LockSupport.parkNanos(10_000_000);
    }
  }

  private static void request() {
    LockSupport.parkNanos(5_000_000);
  }
}
