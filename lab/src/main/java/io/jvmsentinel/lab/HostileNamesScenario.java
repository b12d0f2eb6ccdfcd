package io.jvmsentinel.lab;

/**
 * Threads whose names are markup, started at a steady rate (default 20/s): thread names reach the
 * status page, the API and notifications, and a page that renders them as HTML runs the target's
 * script. The name is the classic probe {@code <img src=x onerror=alert(1)>}.
 */
final class HostileNamesScenario implements Scenario {

  static final String HOSTILE_NAME = "<img src=x onerror=alert(1)>";
  static final int DEFAULT_RATE = 20;

  private final int rate;

  HostileNamesScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "hostile-names";
  }

  @Override
  public String description() {
    return "starts short-lived threads named "
        + HOSTILE_NAME
        + ", --rate per second (default "
        + DEFAULT_RATE
        + ")";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset("hostile-names", "rate", rate);
    RateLoop.run(
        rate,
        sequence -> {
          Thread thread = LabThreads.daemon(HOSTILE_NAME, () -> {});
          thread.start();
        });
  }
}
