package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jmx.ObjectNames;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.management.JMException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import jdk.management.jfr.FlightRecorderMXBean;

/**
 * The target's {@code FlightRecorderMXBean}, read the way that works from every client JDK:
 * attributes raw as {@code CompositeData[]}, because the typed proxy's {@code getEventTypes()}
 * fails on a JDK 17 client ("Argument key="settings" is not an existing item name"). Operations
 * with simple signatures go through the proxy.
 */
final class TargetFlightRecorder {
  static final ObjectName NAME = ObjectNames.parse("jdk.management.jfr:type=FlightRecorder");

  /**
   * One recording on the target.
   *
   * @param startTimeMillis when it started (epoch ms on the target's clock), 0 when not yet
   * @param stopTimeMillis when it stopped, 0 while it runs
   */
  record Recording(
      long id, String name, String state, long size, long startTimeMillis, long stopTimeMillis) {
    Recording(long id, String name, String state, long size) {
      this(id, name, state, size, 0, 0);
    }
  }

  private final MBeanServerConnection mbeans;

  TargetFlightRecorder(MBeanServerConnection mbeans) {
    this.mbeans = mbeans;
  }

  /** False when the target has no FlightRecorder MBean (JDK 8 without JFR, non-HotSpot). */
  boolean present() throws IOException {
    return mbeans.isRegistered(NAME);
  }

  /** The names of every event type the target's JVM has. */
  Set<String> eventTypeNames() throws IOException, JMException {
    Set<String> names = new LinkedHashSet<>();
    for (CompositeData type : compositeArray("EventTypes")) {
      names.add(String.valueOf(type.get("name")));
    }
    return names;
  }

  List<Recording> recordings() throws IOException, JMException {
    List<Recording> recordings = new ArrayList<>();
    for (CompositeData data : compositeArray("Recordings")) {
      recordings.add(
          new Recording(
              ((Number) data.get("id")).longValue(),
              String.valueOf(data.get("name")),
              String.valueOf(data.get("state")),
              number(data, "size", -1),
              number(data, "startTime", 0),
              number(data, "stopTime", 0)));
    }
    return recordings;
  }

  /** The recording with {@code id}, if the target has it. */
  Optional<Recording> find(long id) throws IOException, JMException {
    return recordings().stream().filter(r -> r.id() == id).findFirst();
  }

  private static long number(CompositeData data, String key, long absent) {
    return data.containsKey(key) && data.get(key) instanceof Number n ? n.longValue() : absent;
  }

  /** A new recording, not started; its id is this daemon's beyond doubt (returned to this call). */
  long newRecording() {
    return proxy().newRecording();
  }

  /** Replaces every setting of recording {@code id}. */
  void setSettings(long id, Map<String, String> settings) {
    proxy().setRecordingSettings(id, settings);
  }

  void start(long id) {
    proxy().startRecording(id);
  }

  /**
   * A stopped copy of recording {@code id} holding what it recorded so far: making it ends the
   * target's current chunk, so everything recorded until now is in finished chunks that {@link
   * #openStream} can read.
   */
  long stoppedCopy(long id) {
    return proxy().cloneRecording(id, true);
  }

  /** Opens the chunks of recording {@code id} that end after {@code from} for reading. */
  long openStream(long id, Instant from, int blockSize) throws IOException {
    return proxy()
        .openStream(
            id, Map.of("startTime", from.toString(), "blockSize", Integer.toString(blockSize)));
  }

  /** The next block of an open stream, null at its end. */
  byte[] readStream(long streamId) throws IOException {
    return proxy().readStream(streamId);
  }

  void closeStream(long streamId) throws IOException {
    proxy().closeStream(streamId);
  }

  void setOptions(long id, Map<String, String> options) {
    proxy().setRecordingOptions(id, options);
  }

  void close(long id) throws IOException {
    proxy().closeRecording(id);
  }

  private FlightRecorderMXBean proxy() {
    return JMX.newMXBeanProxy(mbeans, NAME, FlightRecorderMXBean.class);
  }

  private CompositeData[] compositeArray(String attribute) throws IOException, JMException {
    Object value = mbeans.getAttribute(NAME, attribute);
    return value instanceof CompositeData[] array ? array : new CompositeData[0];
  }
}
