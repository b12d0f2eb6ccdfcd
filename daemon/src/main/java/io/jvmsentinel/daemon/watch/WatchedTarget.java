package io.jvmsentinel.daemon.watch;

import io.jvmsentinel.collectors.jfr.JfrHandlers;
import io.jvmsentinel.daemon.jfr.JfrStreamSession;
import io.jvmsentinel.daemon.target.TargetSession;

/** Everything the daemon runs for one target: the JMX session, and the JFR stream on top of it. */
public record WatchedTarget(TargetSession session, JfrHandlers jfr, JfrStreamSession stream)
    implements AutoCloseable {

  public String name() {
    return session.name();
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
