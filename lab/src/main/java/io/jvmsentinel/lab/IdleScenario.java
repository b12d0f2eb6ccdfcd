package io.jvmsentinel.lab;

import java.util.concurrent.locks.LockSupport;

/**
 * Does nothing but stay alive: a quiet baseline and a target for connection tests. With {@code
 * --threads N} it also parks N threads, so what monitoring costs a target with many threads (a read
 * of every thread's state scales with their number) shows above an otherwise idle process.
 */
final class IdleScenario implements Scenario {
  private final int threads;

  IdleScenario(LabOptions options) {
    this.threads = options.threads(0);
  }

  @Override
  public String name() {
    return "idle";
  }

  @Override
  public String description() {
    return "does nothing, stays alive; --threads N parks N threads (none without it)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    for (int i = 0; i < threads; i++) {
      Thread parked = LabThreads.daemon("lab-idle-" + i, IdleScenario::parkForever);
      parked.start();
    }
    log.onset("idle", "threads", threads);
    while (true) {
      Thread.sleep(60_000);
    }
  }

  private static void parkForever() {
    while (true) {
      LockSupport.park();
    }
  }
}
