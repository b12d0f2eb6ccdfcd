package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.management.MBeanServerConnection;
import jdk.management.jfr.FlightRecorderMXBean;
import jdk.management.jfr.RecordingInfo;

/**
 * This test JVM as the target: its platform MBean server stands in for a remote connection ({@code
 * RemoteRecordingStream} works against it), and its own {@code FlightRecorderMXBean} plays the
 * other tools (JMC, jcmd, an APM agent) that start recordings of their own. Closes what it started.
 */
final class InProcessTarget implements AutoCloseable {
  final MBeanServerConnection connection = ManagementFactory.getPlatformMBeanServer();
  final FlightRecorderMXBean recorder =
      ManagementFactory.getPlatformMXBean(FlightRecorderMXBean.class);
  private final List<Long> started = new ArrayList<>();

  /** Starts a recording named {@code name}, as another tool would. */
  long startForeign(String name) {
    long id = recorder.newRecording();
    started.add(id);
    recorder.setRecordingOptions(id, Map.of("name", name));
    recorder.startRecording(id);
    return id;
  }

  Optional<RecordingInfo> recording(long id) {
    return recorder.getRecordings().stream().filter(r -> r.getId() == id).findFirst();
  }

  List<RecordingInfo> named(String name) {
    return recorder.getRecordings().stream().filter(r -> r.getName().equals(name)).toList();
  }

  @Override
  public void close() throws IOException {
    for (long id : started) {
      if (recording(id).isPresent()) {
        recorder.closeRecording(id);
      }
    }
  }
}
