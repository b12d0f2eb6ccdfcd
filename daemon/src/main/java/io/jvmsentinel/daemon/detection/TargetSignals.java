package io.jvmsentinel.daemon.detection;

import io.jvmsentinel.daemon.alert.SignalSample;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;

/**
 * One target at one tick, as the detection engine sees it.
 *
 * @param name the target's name: its alerts' target
 * @param instance what tells one life of the target from the next: a target restarted or replaced
 *     under the same name is a new instance, whose history and alerts start afresh
 * @param tags the tags on its series; those with a value (but its name) go on its notifications
 * @param sample its signals now
 */
public record TargetSignals(String name, Object instance, Tags tags, SignalSample sample) {
  public TargetSignals {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(tags, "tags");
    Objects.requireNonNull(sample, "sample");
  }
}
