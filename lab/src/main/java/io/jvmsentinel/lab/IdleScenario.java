package io.jvmsentinel.lab;

/** Does nothing but stay alive: a quiet baseline and a target for connection tests. */
final class IdleScenario implements Scenario {

  IdleScenario(LabOptions options) {}

  @Override
  public String name() {
    return "idle";
  }

  @Override
  public String description() {
    return "does nothing, stays alive";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset("idle");
    while (true) {
      Thread.sleep(60_000);
    }
  }
}
