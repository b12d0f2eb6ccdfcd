package io.jvmsentinel.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongUnaryOperator;

/**
 * A full code cache: keeps every generated copy of {@link HotCodeTemplate} reachable, so nothing
 * can be unloaded, and compiles new copies until a code heap fills and the JVM logs "CodeCache is
 * full. Compiler has been disabled". Phase {@code fill} starts generating; phase {@code full} is
 * announced when the JVM's own {@code compilerCodecache} says compilation is disabled. Then it
 * keeps adding code at a low rate (it now runs interpreted) so the cache stays full. Needs a tiny
 * segmented cache and, to stay disabled, no flushing: see {@code
 * io.jvmsentinel.daemon.lab.LabScenarios}.
 */
final class CodeCacheFullScenario implements Scenario {

  static final int DEFAULT_RATE = 40;

  /** Copies per second once full: keeps compile requests coming without burning CPU. */
  static final int FULL_RATE = 2;

  private static final long CHECK_EVERY = 10;

  private final int rate;

  CodeCacheFullScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "codecache-full";
  }

  @Override
  public String description() {
    return "compiles new hot code (class copies, all kept) --rate per second (default "
        + DEFAULT_RATE
        + ") until the code cache is full and the JIT disabled (needs a tiny segmented cache)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    GeneratedCode code = new GeneratedCode(HotCodeTemplate.class);
    List<LongUnaryOperator> alive = new ArrayList<>();
    long sink = 0;
    boolean full = false;
    log.onset("fill", "rate", rate);
    long start = System.nanoTime();
    long next = start;
    for (long done = 1; ; done++) {
      if (Thread.interrupted()) {
        Blackhole.consume(sink);
        throw new InterruptedException();
      }
      LongUnaryOperator copy = code.newCopy(LongUnaryOperator.class);
      sink += CodeCacheChurnScenario.runUntilCompiled(copy, done);
      alive.add(copy);
      if (!full && done % CHECK_EVERY == 0) {
        String status = CodeCacheStatus.text();
        if (CodeCacheStatus.compilationDisabled(status)) {
          full = true;
          log.onset(
              "full",
              "copies",
              done,
              "after_ms",
              (System.nanoTime() - start) / 1_000_000,
              "status",
              statusLine(status));
        }
      }
      next += 1_000_000_000L / (full ? FULL_RATE : rate);
      long wait = next - System.nanoTime();
      if (wait > 0) {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } else if (wait < -1_000_000_000L) {
        next = System.nanoTime(); // more than a second behind: drop the backlog
      }
    }
  }

  private static String statusLine(String text) {
    for (String line : text.split("\n")) {
      if (line.toLowerCase(Locale.ROOT).contains("compilation:")) {
        return line.trim().replace(' ', '_');
      }
    }
    return "unknown";
  }
}
