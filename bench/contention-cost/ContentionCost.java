import java.util.concurrent.atomic.LongAdder;

/** Requests/s of 16 threads: contended (one shared lock, 1 ms held per 3rd request) or uncontended (own locks). */
public class ContentionCost {
  public static void main(String[] args) throws Exception {
    boolean contended = args[0].equals("contended");
    long seconds = Long.parseLong(args[1]);
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
    long before = done.sum();
    Thread.sleep(seconds * 1000);
    System.out.println((done.sum() - before) / seconds);
    System.exit(0);
  }
}
