package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.watch.WatchedTarget;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the detection engine reads at each tick: the targets there are now, with a sample of each.
 * The daemon samples its live sessions; replay tests feed recorded timelines, restarts and JMX-only
 * targets through the same door, without sessions.
 */
@FunctionalInterface
public interface SignalSource {
  List<TargetSignals> read(Instant now);

  /** The targets watched now, each sampled from what its pollers and handlers hold. */
  static SignalSource watching(Supplier<List<WatchedTarget>> targets) {
    return now ->
        targets.get().stream()
            .map(
                target ->
                    new TargetSignals(
                        target.name(),
                        target,
                        target.session().tags(),
                        SignalSampler.sample(target, now)))
            .toList();
  }
}
