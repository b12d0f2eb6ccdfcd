package io.jvmsentinel.daemon.web.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.jvmsentinel.daemon.alert.Samples;
import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetSeriesTest {
  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  private static final long E0 = T0.getEpochSecond();

  /** A sample at second {@code t} with the given counters and one code heap. */
  private static SignalSample sample(
      int t, boolean jfr, double starts, double fulls, double compilationEnabled, double used) {
    return new SignalSample(
        T0.plusSeconds(t),
        true,
        0,
        100 + t,
        jfr,
        false,
        starts,
        0,
        0,
        List.of(new SignalSample.CodeHeap("CodeHeap 'profiled nmethods'", used, 100)),
        compilationEnabled,
        fulls,
        0,
        0,
        0,
        0,
        Double.NaN,
        Double.NaN,
        Double.NaN,
        0,
        Map.of(),
        0,
        Double.NaN,
        null,
        null,
        null,
        null,
        null);
  }

  @Test
  void ratesPerSecondBetweenPointsAndNullWhereTheSourceChanged() {
    List<SignalSample> history =
        List.of(
            sample(0, true, 100, 0, 1, 50),
            sample(2, true, 300, 0, 1, 60),
            sample(4, false, 5000, 0, 1, 70),
            sample(6, false, 5100, 0, 1, 80));

    TargetSeries series = TargetSeries.of(history, 50);

    assertThat(series.t()).containsExactly(E0, (E0 + 2), (E0 + 4), (E0 + 6));
    assertThat(series.threadStartsPerSecond()).containsExactly(null, 100.0, null, 50.0);
    assertThat(series.codeCache().get("CodeHeap 'profiled nmethods'"))
        .containsExactly(0.5, 0.6, 0.7, 0.8);
    // Unknown compiler CPU is null (JSON has no NaN), drawn as a gap.
    assertThat(series.compilerCpuShare()).containsOnlyNulls();
    assertThat(series.stormThreshold()).isEqualTo(50);
  }

  @Test
  void gcPausesReadAfterAFreezeAreDrawnOverTheFreeze() {
    // 2% in GC, then 20 s without answers, 18 s of it in collections read when it answered again.
    List<SignalSample> history = new java.util.ArrayList<>();
    history.add(gcSample(0, true, 0));
    history.add(gcSample(10, true, 0.2));
    for (int t = 12; t < 30; t += 2) {
      history.add(gcSample(t, false, 0.2));
    }
    history.add(gcSample(30, true, 18.2));
    history.add(gcSample(40, true, 18.4));

    List<Double> share = TargetSeries.of(history, 50).gcPauseShare();

    assertThat(share.get(0)).isNull();
    assertThat(share.get(1)).isCloseTo(0.02, within(1e-9));
    assertThat(share.subList(2, 12)).as("the outage and the tick it ended").containsOnly(0.9);
    assertThat(share.get(12)).isCloseTo(0.02, within(1e-9));
  }

  private static SignalSample gcSample(int t, boolean up, double gcPauseSeconds) {
    Samples sample = new Samples().at(T0.plusSeconds(t)).gcPause(gcPauseSeconds);
    return (up ? sample : sample.down(t)).build();
  }

  @Test
  void marksTheFillAndTheCompilerStoppingOnTheTimeAxis() {
    List<SignalSample> history =
        List.of(
            sample(0, true, 0, 0, 1, 90),
            sample(1, true, 0, 1, 0, 100),
            sample(2, true, 0, 1, 0, 100));

    List<TargetSeries.Marker> markers = TargetSeries.of(history, 50).markers();

    assertThat(markers)
        .containsExactly(
            new TargetSeries.Marker((E0 + 1), TargetSeries.MarkerKind.FULL, null),
            new TargetSeries.Marker((E0 + 1), TargetSeries.MarkerKind.COMPILATION_DISABLED, null));
  }

  @Test
  void aCacheAlreadyFullAtTheFirstSampleIsMarkedThere() {
    List<TargetSeries.Marker> markers =
        TargetSeries.of(List.of(sample(0, true, 0, 3, 0, 100), sample(1, true, 0, 3, 0, 100)), 50)
            .markers();

    assertThat(markers)
        .extracting(TargetSeries.Marker::kind)
        .containsExactlyInAnyOrder(
            TargetSeries.MarkerKind.FULL, TargetSeries.MarkerKind.COMPILATION_DISABLED);
    assertThat(markers).allSatisfy(m -> assertThat(m.t()).isEqualTo(E0));
  }

  @Test
  void boundedAtAnyHistoryLengthKeepingTheLatestPoint() {
    List<SignalSample> history = new ArrayList<>();
    for (int t = 0; t < 2000; t++) {
      // The compiler stops and starts every other second: many markers.
      history.add(sample(t, true, t * 10.0, 0, t % 2, 50));
    }

    TargetSeries series = TargetSeries.of(history, 50);

    assertThat(series.t()).hasSizeLessThanOrEqualTo(TargetSeries.MAX_POINTS);
    assertThat(series.t().get(series.t().size() - 1)).isEqualTo(E0 + 1999);
    assertThat(series.threadStartsPerSecond().get(1)).isEqualTo(10.0);
    assertThat(series.markers()).hasSize(TargetSeries.MAX_MARKERS);
    assertThat(series.markers().get(TargetSeries.MAX_MARKERS - 1).t()).isEqualTo(E0 + 1999);
  }
}
