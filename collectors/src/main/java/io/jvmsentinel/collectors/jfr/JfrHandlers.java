package io.jvmsentinel.collectors.jfr;

import io.jvmsentinel.collectors.jfr.threads.ThreadEndHandler;
import io.jvmsentinel.collectors.jfr.threads.ThreadLifetimes;
import io.jvmsentinel.collectors.jfr.threads.ThreadStartHandler;
import io.micrometer.core.instrument.Tags;
import java.util.List;

/**
 * The one explicit list of JFR event handlers for a target. The stream wires only those whose event
 * the target's JVM offers, so one list serves every JDK. Handlers with state that the API and
 * detection read are exposed as typed accessors.
 */
public final class JfrHandlers {
  private final ThreadStartHandler threadStarts;
  private final ThreadEndHandler threadEnds;

  private JfrHandlers(Tags tags) {
    ThreadLifetimes lifetimes = new ThreadLifetimes();
    this.threadStarts = new ThreadStartHandler(tags, lifetimes);
    this.threadEnds = new ThreadEndHandler(tags, lifetimes);
  }

  /** Every handler, for a target whose series carry {@code tags}. */
  public static JfrHandlers create(Tags tags) {
    return new JfrHandlers(tags);
  }

  public List<JfrEventHandler> all() {
    return List.of(threadStarts, threadEnds);
  }

  public ThreadStartHandler threadStarts() {
    return threadStarts;
  }
}
