package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.SignalSample;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The older and newer halves of a rule's window, which ends at its latest sample. A sample's starts
 * happened in the tick before it, so each half runs after its first instant, up to its last: a
 * sample at the window's start is before the window.
 */
record WindowHalves(Instant from, Instant split, Instant latest) {

  /** The halves of {@code window} ending at the last of {@code samples}, which is not empty. */
  static WindowHalves endingAtLatest(List<SignalSample> samples, Duration window) {
    Instant latest = samples.get(samples.size() - 1).at();
    return new WindowHalves(latest.minus(window), latest.minus(window.dividedBy(2)), latest);
  }

  boolean inOlder(SignalSample sample) {
    return sample.at().isAfter(from) && !sample.at().isAfter(split);
  }

  boolean inNewer(SignalSample sample) {
    return sample.at().isAfter(split) && !sample.at().isAfter(latest);
  }
}
