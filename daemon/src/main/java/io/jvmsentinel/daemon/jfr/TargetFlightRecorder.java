package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jmx.ObjectNames;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
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
   * #copyChunks} can read.
   */
  long stoppedCopy(long id) {
    return proxy().cloneRecording(id, true);
  }

  /**
   * A stopped recording of everything the target's running recordings hold on disk now (the current
   * chunk ended), whichever recording enabled what.
   */
  long takeSnapshot() {
    return proxy().takeSnapshot();
  }

  /**
   * Names the stopped recording {@code copy} (so a daemon killed mid-read leaves a copy its
   * successor may close), copies its chunks that overlap {@code from} to {@code to} (null: no end)
   * into {@code out} as {@link #copyChunks} does, and closes it, whatever happens.
   */
  long readCopy(
      long copy,
      String copyName,
      Instant from,
      Instant to,
      int blockSize,
      OutputStream out,
      long maxBytes)
      throws IOException {
    try {
      setOptions(copy, Map.of("name", copyName));
      return copyChunks(copy, from, to, blockSize, out, maxBytes);
    } finally {
      close(copy);
    }
  }

  /**
   * Copies the chunks of the stopped recording {@code id} that overlap {@code from} to {@code to}
   * (null: no end) into {@code out}: at most {@code maxBytes} (the target may send anything), else
   * an {@link IOException} naming the limit. Returns the bytes copied.
   */
  long copyChunks(long id, Instant from, Instant to, int blockSize, OutputStream out, long maxBytes)
      throws IOException {
    Map<String, String> options = new HashMap<>();
    options.put("startTime", from.toString());
    if (to != null) {
      options.put("endTime", to.toString());
    }
    options.put("blockSize", Integer.toString(blockSize));
    long stream = proxy().openStream(id, options);
    try {
      long copied = 0;
      for (byte[] block = readStream(stream); block != null; block = readStream(stream)) {
        if (copied + block.length > maxBytes) {
          throw new IOException(
              "the target sent more than " + maxBytes + " bytes of JFR data (jfr.maxSizeMb)");
        }
        out.write(block);
        copied += block.length;
      }
      return copied;
    } finally {
      closeStream(stream);
    }
  }

  /** The next block of an open stream, null at its end. */
  private byte[] readStream(long streamId) throws IOException {
    return proxy().readStream(streamId);
  }

  private void closeStream(long streamId) throws IOException {
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
