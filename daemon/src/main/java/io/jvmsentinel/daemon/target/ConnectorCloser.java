package io.jvmsentinel.daemon.target;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import javax.management.remote.JMXConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a target's old JMX connectors off the session thread: closing talks to the target, which
 * may be hung. One close runs at a time and a few wait; beyond that the connector is left to the
 * JVM (its sockets time out), so a hung target never grows the daemon's thread count.
 */
final class ConnectorCloser implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TargetSession.class);

  // Connections waiting to be closed while one close hangs on a dead target.
  private static final int CLOSE_QUEUE = 4;

  private final String name;
  private final ThreadPoolExecutor closer;

  ConnectorCloser(String name) {
    this.name = name;
    this.closer = HelperThread.withQueue("jmx-close-" + name, CLOSE_QUEUE);
  }

  /** Closes {@code old} on the helper thread, or leaves it when too many closes wait. */
  void closeLater(JMXConnector old) {
    try {
      closer.execute(() -> TimeLimitedConnect.closeQuietly(old));
    } catch (RejectedExecutionException e) {
      log.warn(
          "target {}: {} earlier connections are still closing (target hung); not waiting to"
              + " close this one",
          name,
          closer.getQueue().size() + 1);
    }
  }

  /** Lets the closes under way finish; takes no more. */
  @Override
  public void close() {
    closer.shutdown();
  }
}
