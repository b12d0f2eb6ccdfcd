package io.jvmsentinel.daemon.export.datadog;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What each kind of meter sends in one step. Gauges send their value; counters send what was added
 * in the step; timers and distribution summaries send {@code <name>.count} and {@code <name>.sum}
 * (added in the step; seconds for timers) and the {@code <name>.max} gauge. NaN and infinite values
 * are skipped.
 */
final class Datapoints {
  private static final TimeUnit SECONDS = TimeUnit.SECONDS;

  private final StepDeltas deltas;

  Datapoints(StepDeltas deltas) {
    this.deltas = deltas;
  }

  List<Datapoint> of(Meter meter) {
    String name = DogStatsdNames.name(meter.getId().getName());
    List<Datapoint> out = new ArrayList<>();
    meter.match(
        gauge -> gauge(out, name, gauge.value()),
        counter -> count(out, name, counter.getId(), "count", counter.count(), true),
        timer -> timer(out, name, timer),
        summary -> summary(out, name, summary),
        longTask -> longTask(out, name, longTask),
        timeGauge -> gauge(out, name, timeGauge.value(SECONDS)),
        functionCounter -> functionCounter(out, name, functionCounter),
        functionTimer -> functionTimer(out, name, functionTimer),
        other -> other(out, name, other));
    return out;
  }

  private Void timer(List<Datapoint> out, String name, Timer timer) {
    Meter.Id id = timer.getId();
    count(out, name + ".count", id, "count", timer.count(), true);
    count(out, name + ".sum", id, "sum", timer.totalTime(SECONDS), true);
    return gauge(out, name + ".max", timer.max(SECONDS));
  }

  private Void summary(List<Datapoint> out, String name, DistributionSummary summary) {
    Meter.Id id = summary.getId();
    count(out, name + ".count", id, "count", summary.count(), true);
    count(out, name + ".sum", id, "sum", summary.totalAmount(), true);
    return gauge(out, name + ".max", summary.max());
  }

  private Void longTask(List<Datapoint> out, String name, LongTaskTimer timer) {
    gauge(out, name + ".active_tasks", timer.activeTasks());
    gauge(out, name + ".duration", timer.duration(SECONDS));
    return gauge(out, name + ".max", timer.max(SECONDS));
  }

  private Void functionCounter(List<Datapoint> out, String name, FunctionCounter counter) {
    return count(out, name, counter.getId(), "count", counter.count(), false);
  }

  private Void functionTimer(List<Datapoint> out, String name, FunctionTimer timer) {
    Meter.Id id = timer.getId();
    count(out, name + ".count", id, "count", timer.count(), false);
    return count(out, name + ".sum", id, "sum", timer.totalTime(SECONDS), false);
  }

  // Custom meters: each measurement as a gauge, named after its statistic.
  private Void other(List<Datapoint> out, String name, Meter meter) {
    for (Measurement m : meter.measure()) {
      gauge(
          out,
          name + "." + m.getStatistic().getTagValueRepresentation().toLowerCase(Locale.ROOT),
          m.getValue());
    }
    return null;
  }

  private static Void gauge(List<Datapoint> out, String name, double value) {
    // NaN (a target that is down) and infinities have no DogStatsD form.
    if (Double.isFinite(value)) {
      out.add(Datapoint.gauge(name, value));
    }
    return null;
  }

  private Void count(
      List<Datapoint> out,
      String name,
      Meter.Id id,
      String part,
      double cumulative,
      boolean fromZero) {
    double delta = deltas.delta(id, part, cumulative, fromZero);
    if (Double.isFinite(delta)) {
      out.add(Datapoint.count(name, delta));
    }
    return null;
  }
}
