package io.jvmsentinel.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;

/**
 * The fixed workload of the overhead benchmark ({@code bench/run}): a steady pool of {@code
 * --threads} workers (default 2, one per core of the benchmark machine) in a closed loop of CPU
 * work with allocation ({@link CpuWork#request}), every {@value #TLS_EVERY}th operation also an
 * HTTPS request to a local server (a new connection with a resumed session, as a client with a
 * shared {@code SSLContext} does). Every second it prints {@code LAB throughput ops=<n> tls=<n>
 * interval_ms=<ms> at=<ms>}: a monitor that takes CPU from the target shows up as fewer ops.
 */
final class BenchScenario implements Scenario {

  static final int DEFAULT_THREADS = 2;
  static final int TLS_EVERY = 16;
  private static final long REPORT_MILLIS = 1_000;

  private final int threads;

  BenchScenario(LabOptions options) {
    this.threads = options.threads(DEFAULT_THREADS);
  }

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String description() {
    return "benchmark workload: --threads (default "
        + DEFAULT_THREADS
        + ") workers doing CPU work, allocation and TLS requests; prints ops/s every second";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    SSLContext client = LabTls.load().newClientContext();
    LongAdder ops = new LongAdder();
    LongAdder tls = new LongAdder();
    LongAdder failures = new LongAdder();
    try (LabHttpsServer server = LabHttpsServer.start()) {
      List<Thread> workers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        long seed = i * 1_000_003L;
        Thread worker =
            LabThreads.daemon(
                "lab-bench-" + i, () -> work(seed, client, server.port(), ops, tls, failures));
        workers.add(worker);
      }
      workers.forEach(Thread::start);
      log.onset("bench", "threads", threads, "tls_every", TLS_EVERY);
      try {
        report(log, ops, tls, failures);
      } finally {
        workers.forEach(Thread::interrupt);
      }
    }
  }

  private static void report(LabLog log, LongAdder ops, LongAdder tls, LongAdder failures)
      throws InterruptedException {
    long last = System.nanoTime();
    long lastOps = 0;
    long lastTls = 0;
    while (true) {
      Thread.sleep(REPORT_MILLIS);
      long now = System.nanoTime();
      long totalOps = ops.sum();
      long totalTls = tls.sum();
      log.sample(
          "throughput",
          "ops",
          totalOps - lastOps,
          "tls",
          totalTls - lastTls,
          "failures",
          failures.sum(),
          "interval_ms",
          (now - last) / 1_000_000);
      last = now;
      lastOps = totalOps;
      lastTls = totalTls;
    }
  }

  private static void work(
      long seed, SSLContext client, int port, LongAdder ops, LongAdder tls, LongAdder failures) {
    long sink = 0;
    long sequence = seed;
    while (!Thread.currentThread().isInterrupted()) {
      sink += CpuWork.request(sequence++);
      ops.increment();
      if (sequence % TLS_EVERY == 0) {
        try {
          TlsSocketClient.get(client, port, LabHttpsServer.CLOSE_PATH);
          tls.increment();
        } catch (Exception e) {
          failures.increment();
        }
      }
    }
    Blackhole.consume(sink);
  }
}
