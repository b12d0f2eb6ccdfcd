package io.jvmsentinel.daemon.watch;

import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.collectors.jmx.ThreadPoller;
import io.jvmsentinel.daemon.alert.ContentionSignals;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.target.TargetSession;

/** Everything the daemon runs for one target: the JMX session, and the JFR stream on top of it. */
public record WatchedTarget(TargetSession session, JfrHandlers jfr, JfrStreamSession stream)
    implements AutoCloseable {

  public String name() {
    return session.name();
  }

  /** Which lock contention signals this target gives now, and why the others are missing. */
  public ContentionSignals contentionSignals() {
    ThreadPoller.ThreadStates states = session.pollers().threads().states();
    boolean streaming = stream.streaming();
    return new ContentionSignals(
        streaming,
        streaming ? null : stream.state(),
        states == null ? null : states.blockedMillis() >= 0);
  }

  public void start() {
    session.start();
  }

  @Override
  public void close() {
    // The session first: closing it tells the stream it is disconnected, which a stream already
    // shut down would reject (a RejectedExecutionException logged at every SIGTERM).
    session.close();
    stream.close();
  }
}
