package io.jvmsentinel.daemon.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.jvmsentinel.daemon.alert.AlertNotification.Status;
import io.jvmsentinel.daemon.alert.Samples;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.WarmUp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * When alerts start and end (issue 26), through the production rules and alert life cycle, on
 * synthetic timelines sampled every second after warm-up: an incident pages while it lasts and
 * resolves within 30 s of its cause stopping, and a rate hovering at a threshold neither flaps nor
 * pages twice.
 */
class AlertTimingTest {
  private static final int ONSET = 100;
  private static final int END = 160;

  @Test
  void gcOverheadPagesDuringThePressureAndResolvesWithin30SecondsOfItsEnd() {
    List<Replay.Page> pages =
        replay(600, t -> t >= ONSET && t < END ? 0.4 : 0.01, AlertTimingTest::gcPauses);

    assertPagedThenResolved(pages, "GcOverhead", END - 1, END);
  }

  @Test
  void gcOverheadHoveringAtItsThresholdPagesOnceAndStaysFiring() {
    // 12% and 32% in turns of 20 s: the minute averages 22%, and the latest 10 s spend 16 s of
    // every 40 below the 20% that pages, never below the 10% a firing alert holds at.
    List<Replay.Page> pages =
        replay(900, t -> (t / 20) % 2 == 0 ? 0.12 : 0.32, AlertTimingTest::gcPauses);

    assertOnePageThatStays(pages);
  }

  @Test
  void gcOverheadHoveringAtItsResolveThresholdAfterAnIncidentNeverPagesAgain() {
    // 40% for a minute, then 5% and 15% in turns of 7 s: around the 10% a firing alert holds at.
    List<Replay.Page> pages =
        replay(
            900,
            t -> t < ONSET ? 0 : t < END ? 0.4 : (t / 7) % 2 == 0 ? 0.05 : 0.15,
            AlertTimingTest::gcPauses);

    assertThat(pages.stream().filter(p -> p.status() == Status.FIRING)).hasSize(1);
    assertThat(pages.stream().filter(p -> p.status() == Status.RESOLVED)).hasSizeLessThan(2);
  }

  @Test
  void aFullGcAfterGcPressureResolvedDoesNotPageItAgain() {
    // 40% for a minute; resolved by END + 30; then one full GC of 1.5 s at END + 32, while the
    // minute still holds 28 s of the pressure: 21% with it.
    List<Replay.Page> pages =
        replay(
            600,
            t -> t >= ONSET && t < END ? 0.4 : t == END + 32 ? 1.5 : 0,
            AlertTimingTest::gcPauses);

    assertPagedThenResolved(pages, "GcOverhead", END - 1, END);
  }

  @Test
  void deoptimizationStormPagesWithin20SecondsAndResolvesWithin30SecondsOfItsEnd() {
    List<Replay.Page> pages =
        replay(600, t -> t >= ONSET && t < END ? 30 : 0, AlertTimingTest::deoptimizations);

    assertPagedThenResolved(pages, "DeoptimizationStorm", ONSET + 20, END);
  }

  @Test
  void aBurstOfDeoptimizationsIsNotAStorm() {
    // A new type seen by hot code: 80 methods deoptimised within 3 s, then recompiled.
    List<Replay.Page> pages =
        replay(600, t -> t >= ONSET && t < ONSET + 3 ? 80 : 0, AlertTimingTest::deoptimizations);

    assertThat(pages).isEmpty();
  }

  @Test
  void deoptimizationsHoveringAtTheRatePageOnceAndStayFiring() {
    // 8 a second for 24 s, 3 a second for 20 s, over and over: around the 5/s that pages, never
    // below the 2.5/s a firing alert holds at.
    List<Replay.Page> pages =
        replay(
            900,
            t -> t < ONSET ? 0 : ((t - ONSET) % 44) < 24 ? 8 : 3,
            AlertTimingTest::deoptimizations);

    assertOnePageThatStays(pages);
  }

  @Test
  void tlsHandshakeStormResolvesWithin30SecondsOfItsEnd() {
    // 20 full handshakes a second with one peer for a minute.
    List<Replay.Page> pages =
        replay(
            400,
            t -> t >= ONSET && t < END ? 20 : 0,
            (sample, t, total) ->
                sample.tls(Map.of("db:5432", new SignalSample.TlsPeer(total, total))));

    assertPagedThenResolved(pages, "TlsHandshakeStorm", END, END);
  }

  @Test
  void codecacheChurnResolvesWithin30SecondsOfTheRecompilationsEnd() {
    // The same methods compiled again 100 times a second in a cache 85% full, for 90 s; the cache
    // stays full afterwards, but nothing is compiled again.
    List<Replay.Page> pages =
        replay(
            400,
            t -> t >= ONSET && t < ONSET + 90 ? 100 : 0,
            (sample, t, total) ->
                sample.heap("CodeCache", 85, 100).recompilations(total).compilations(total));

    assertPagedThenResolved(pages, "CodeCacheChurn", ONSET + 90, ONSET + 90);
  }

  @Test
  void compilerCpuHighResolvesWithin30SecondsOfTheCompilersCalmingDown() {
    // Compiler threads at 60% of the process CPU, 0.6 of a core, for 5 minutes.
    int end = ONSET + 300;
    List<Replay.Page> pages =
        replay(
            700,
            t -> t >= ONSET && t < end ? 0.6 : 0.005,
            (sample, t, total) ->
                sample.compilerCpuSeconds(total).compilerShare(t >= ONSET && t < end ? 0.6 : 0.01));

    assertPagedThenResolved(pages, "CompilerCpuHigh", end, end);
  }

  /**
   * Exactly one page of {@code rule}, from {@link #ONSET} to {@code firedBy}, and its resolve
   * within 30 s of {@code end}, when the cause stopped.
   */
  private static void assertPagedThenResolved(
      List<Replay.Page> pages, String rule, int firedBy, int end) {
    assertThat(pages)
        .extracting(Replay.Page::rule, Replay.Page::status)
        .containsExactly(tuple(rule, Status.FIRING), tuple(rule, Status.RESOLVED));
    assertThat(pages.get(0).atSecond()).isBetween((double) ONSET, (double) firedBy);
    assertThat(pages.get(1).atSecond()).isBetween((double) end, end + 30.0);
  }

  /** One page, never resolved: no flapping. */
  private static void assertOnePageThatStays(List<Replay.Page> pages) {
    assertThat(pages).extracting(Replay.Page::status).containsExactly(Status.FIRING);
  }

  private static void gcPauses(Samples sample, int second, double total) {
    sample.gcPause(total);
  }

  private static void deoptimizations(Samples sample, int second, double total) {
    sample.deopts(total, total / 8);
  }

  /** Sets a sample of second {@code second}, given the running total of the rate replayed. */
  private interface Cumulative {
    void set(Samples sample, int second, double total);
  }

  /**
   * {@code seconds} samples a second apart, past warm-up, where {@code perSecond(t)} is how much of
   * {@code counter} accrues in second {@code t}.
   */
  private static List<Replay.Page> replay(
      int seconds, IntToDoubleFunction perSecond, Cumulative counter) {
    List<SignalSample> samples = new ArrayList<>();
    double total = 0;
    for (int t = 0; t <= seconds; t++) {
      Samples sample = new Samples().at(Samples.T0.plusSeconds(t)).uptime(3600 + t);
      counter.set(sample, t, total);
      samples.add(sample.build());
      total += perSecond.applyAsDouble(t);
    }
    return Replay.run(samples, WarmUp.DEFAULT);
  }
}
