package io.jvmsentinel.daemon.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording made by the lab target itself, of just the events a mechanism test counts (with
 * no threshold, so every compilation is kept): the target's own account of what it did, written
 * when the lab exits at the end of its {@code --duration}.
 */
final class TargetRecording {

  private final Path file;
  private final Path settings;

  private TargetRecording(Path file, Path settings) {
    this.file = file;
    this.settings = settings;
  }

  /** A recording in {@code dir} of {@code events}, each with its stack trace. */
  static TargetRecording of(Path dir, String... events) throws IOException {
    StringBuilder jfc = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    jfc.append("<configuration version=\"2.0\">\n");
    for (String event : events) {
      jfc.append("  <event name=\"")
          .append(event)
          .append("\"><setting name=\"enabled\">true</setting>")
          .append("<setting name=\"stackTrace\">true</setting>")
          .append("<setting name=\"threshold\">0 ms</setting></event>\n");
    }
    jfc.append("</configuration>\n");
    Path settings = Files.writeString(dir.resolve("lab.jfc"), jfc);
    return new TargetRecording(dir.resolve("lab.jfr"), settings);
  }

  /** The JVM flag that starts the recording with the target. */
  String jvmFlag() {
    return "-XX:StartFlightRecording:filename=" + file + ",settings=" + settings;
  }

  /** Events of {@code type} that started in [from, to). */
  List<RecordedEvent> events(String type, Instant from, Instant to) throws IOException {
    List<RecordedEvent> matching = new ArrayList<>();
    for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
      if (event.getEventType().getName().equals(type)
          && !event.getStartTime().isBefore(from)
          && event.getStartTime().isBefore(to)) {
        matching.add(event);
      }
    }
    return matching;
  }

  /** Whether a frame of the event's stack is {@code Class.method} (e.g. a creator site). */
  static boolean hasFrame(RecordedEvent event, String classAndMethod) {
    if (event.getStackTrace() == null) {
      return false;
    }
    for (RecordedFrame frame : event.getStackTrace().getFrames()) {
      String name = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
      if (name.equals(classAndMethod)) {
        return true;
      }
    }
    return false;
  }
}
