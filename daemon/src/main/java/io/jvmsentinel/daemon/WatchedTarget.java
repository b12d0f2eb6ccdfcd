package io.jvmsentinel.daemon;

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
    stream.close();
    session.close();
  }
}
