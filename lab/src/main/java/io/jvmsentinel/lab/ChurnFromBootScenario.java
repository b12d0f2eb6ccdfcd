package io.jvmsentinel.lab;

/**
 * Code cache churn from the first second (issue 12, case 3; the seed incident after a JDK upgrade
 * was churn from boot): the {@code codecache-churn} mechanism with no delay, keeping as many hot
 * copies as hold the code cache at {@value #TARGET_PERCENT}% of its maximum (the launcher sets
 * {@code -XX:ReservedCodeCacheSize=8m}). The cache is near its maximum and flushed from the first
 * minute, while the same methods (every copy's {@code m0..m7}) are compiled again and again. Onset
 * {@code churn} at start.
 */
final class ChurnFromBootScenario implements Scenario {

  static final int DEFAULT_RATE = CodeCacheChurnScenario.DEFAULT_RATE;
  static final int TARGET_PERCENT = 90;

  /**
   * Calls per copy while the cache fills: enough for C1 (tier 3, the larger code) and cheap, so a
   * busy machine fills the cache within the first minute too; at the target, copies run until C2
   * has compiled them as well.
   */
  static final int FILL_CALLS = 3_000;

  /** Unloads dropped copies often, so flushing starts as soon as the cache is near its target. */
  static final int UNLOAD_EVERY = 10;

  private final int rate;

  ChurnFromBootScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "churn-from-boot";
  }

  @Override
  public String description() {
    return "codecache-churn from the first second, the cache held at "
        + TARGET_PERCENT
        + "% of max, --rate copies per second (default "
        + DEFAULT_RATE
        + "): needs -XX:ReservedCodeCacheSize=8m";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset(
        "churn", "rate", rate, "target_percent", TARGET_PERCENT, "unload_every", UNLOAD_EVERY);
    CodeCacheChurnScenario.churn(
        rate,
        () ->
            CodeCacheStatus.occupancyPercent() < TARGET_PERCENT
                ? FILL_CALLS
                : CodeCacheChurnScenario.CALLS_PER_COPY,
        alive -> CodeCacheStatus.occupancyPercent() > TARGET_PERCENT,
        UNLOAD_EVERY);
  }
}
