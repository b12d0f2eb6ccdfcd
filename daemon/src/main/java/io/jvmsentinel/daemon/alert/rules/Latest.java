package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import io.jvmsentinel.daemon.alert.SubWindows;
import java.time.Duration;
import java.util.List;

/**
 * The latest sub-window of a rule's window: what a firing alert is judged on. A firing rule that
 * kept judging its whole window would resolve only once the incident had drained out of it, a
 * minute or more after the cause stopped; the latest sub-window says whether the cause is still
 * there. Hysteresis stays: the sub-window is held to the lower resolve threshold, and must stay
 * clear for the rule's {@code clearFor} before the alert resolves.
 */
final class Latest {
  private Latest() {}

  /** The last of the window's {@link SubWindows#PARTS} slices (empty while history is short). */
  static List<SignalSample> subWindow(SignalWindow history, Duration window) {
    List<List<SignalSample>> slices = SubWindows.of(history, window, SubWindows.PARTS);
    return slices.isEmpty() ? List.of() : slices.get(slices.size() - 1);
  }
}
