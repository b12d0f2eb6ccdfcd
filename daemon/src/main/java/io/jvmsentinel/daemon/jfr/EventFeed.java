package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;

/**
 * How the events of the daemon's recording on a target reach the handlers: a remote stream on JDK
 * 16+ ({@link StreamFeed}), or recorded chunks read over JMX every few seconds on targets that have
 * the FlightRecorder MBean but no remote streaming (JDK 11, OpenJDK 8u262+: {@link ChunkFeed}).
 * Everything above a feed (settings, handlers, storm protection, stack sampling, lease, evidence)
 * is the same for both. Handlers are called from one feed thread at a time.
 */
interface EventFeed {
  /** Which kind of feed, for the API: {@code stream} or {@code chunks}. */
  String kind();

  /** Replaces every setting of the recording (one remote call), before or after {@link #start}. */
  void setSettings(Map<String, String> settings);

  /** Where events of {@code eventName} go; call before {@link #start}. */
  void onEvent(String eventName, Consumer<RecordedEvent> consumer);

  /** Runs each time the target's data has been read up to a new point (proof of life). */
  void onFlush(Runnable action);

  /** Starts recording and delivering; returns once started. */
  void start() throws IOException;

  /**
   * How late events reach the handlers by design, on top of delivery noise: zero for a stream,
   * about one read period for chunks. Overload shedding allows for it.
   */
  Duration inherentDelay();

  /** Stops delivering and closes the recording on the target. */
  void close();
}
