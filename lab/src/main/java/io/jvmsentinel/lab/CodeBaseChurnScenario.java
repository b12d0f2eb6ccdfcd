package io.jvmsentinel.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * Incident 4 as it happened: a code base larger than the code cache, and no class loading once it
 * is loaded. At start the scenario loads {@value #OVERSIZE_PERCENT}% of the cache's maximum worth
 * of distinct classes (renamed copies of {@link HotCodeTemplate}, about {@value #COPY_KB} KB of
 * compiled code each), keeps them all and calls each until C2 has compiled it; then it calls them
 * in rotation, {@code --rate} a second, each again until compiled. The cache cannot hold the whole
 * code base, so the JVM flushes code of classes out of use (the sweeper up to JDK 19, code cache
 * GCs from JDK 20) and compiles it again when the rotation comes back, while no class is loaded or
 * unloaded. Needs a cache larger than the lab's small ones to be the incident's shape (e.g. {@code
 * -XX:ReservedCodeCacheSize=40m}); {@code --classes} sets the code base's size instead. Onset
 * {@code churn} at start (the code base is the incident); {@code LAB rotation} when loading ends.
 */
final class CodeBaseChurnScenario implements Scenario {

  static final int DEFAULT_RATE = CodeCacheChurnScenario.DEFAULT_RATE;
  static final int OVERSIZE_PERCENT = 150;
  static final int COPY_KB = 16;

  private final int rate;
  private final int classes;

  CodeBaseChurnScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
    this.classes =
        options.classes((int) (CodeCacheStatus.max() * OVERSIZE_PERCENT / 100 / (COPY_KB * 1024L)));
  }

  @Override
  public String name() {
    return "codebase-churn";
  }

  @Override
  public String description() {
    return "a code base of distinct classes (default "
        + OVERSIZE_PERCENT
        + "% of what the cache holds, or --classes), loaded once, called in rotation --rate a"
        + " second (default "
        + DEFAULT_RATE
        + "): flushed and compiled again, no class loading; run with"
        + " -XX:ReservedCodeCacheSize=40m";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset("churn", "classes", classes, "rate", rate);
    GeneratedCode template = new GeneratedCode(HotCodeTemplate.class);
    List<LongUnaryOperator> codeBase = new ArrayList<>();
    for (int i = 0; i < classes; i++) {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      LongUnaryOperator copy =
          template.renamed("io.jvmsentinel.lab.CodeBase" + i).newCopy(LongUnaryOperator.class);
      codeBase.add(copy);
      Blackhole.consume(CodeCacheChurnScenario.runUntilCompiled(copy, i));
    }
    log.sample("rotation", "classes", classes);
    RateLoop.run(
        rate,
        sequence -> {
          LongUnaryOperator copy = codeBase.get((int) (sequence % codeBase.size()));
          Blackhole.consume(CodeCacheChurnScenario.runUntilCompiled(copy, sequence));
        });
  }
}
