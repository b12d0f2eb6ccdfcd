package io.jvmsentinel.collectors.jfr;

import io.micrometer.core.instrument.Tags;
import java.util.List;

/**
 * The one explicit list of JFR event handlers for a target. The stream wires only those whose event
 * the target's JVM offers, so one list serves every JDK.
 */
public final class JfrHandlers {
  private final List<JfrEventHandler> all;

  private JfrHandlers(List<JfrEventHandler> all) {
    this.all = List.copyOf(all);
  }

  /** Every handler, for a target whose series carry {@code tags}. */
  public static JfrHandlers create(Tags tags) {
    return new JfrHandlers(List.of());
  }

  public List<JfrEventHandler> all() {
    return all;
  }
}
