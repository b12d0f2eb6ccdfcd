package io.jvmsentinel.daemon.export.datadog;

import io.micrometer.core.instrument.Meter;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns cumulative values (what the Prometheus registry keeps) into what was added in one step
 * (what a DogStatsD count carries), per meter and per part ({@code count}, {@code sum}).
 *
 * <p>A value lower than the step before is a reset (a restarted target): everything since the reset
 * is new, so the delta is the new value. A NaN value (a target that is down) sends nothing and
 * keeps the previous value, so the first value after it is measured against the last one known.
 */
final class StepDeltas {
  private record Key(Meter.Id id, String part) {}

  private Map<Key, Double> previous = new HashMap<>();
  private Map<Key, Double> current = new HashMap<>();

  /**
   * @param fromZero true for values the daemon counted itself from zero (a Counter): the first step
   *     sends all of it; false for values read from outside (a FunctionCounter over a target's
   *     cumulative count): the first step only takes a baseline, so a target's history since its
   *     start does not land in one step
   * @return what was added since the previous step, or NaN when there is nothing to send
   */
  double delta(Meter.Id id, String part, double cumulative, boolean fromZero) {
    Key key = new Key(id, part);
    Double before = previous.get(key);
    if (Double.isNaN(cumulative)) {
      if (before != null) {
        current.put(key, before);
      }
      return Double.NaN;
    }
    current.put(key, cumulative);
    if (before == null) {
      return fromZero ? cumulative : Double.NaN;
    }
    return cumulative < before ? cumulative : cumulative - before;
  }

  /** Ends the step: meters not seen in it are forgotten (they were removed from the registry). */
  void endStep() {
    previous = current;
    current = new HashMap<>();
  }
}
