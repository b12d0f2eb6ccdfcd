package io.jvmsentinel.daemon.jfr;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedEvent;
import jdk.management.jfr.RemoteRecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A remote JFR stream (JDK 16+ targets): events arrive about once a second as the JDK flushes. */
final class StreamFeed implements EventFeed {
  private static final Logger log = LoggerFactory.getLogger(StreamFeed.class);

  private final RemoteRecordingStream stream;

  StreamFeed(RemoteRecordingStream stream, String target) {
    this.stream = stream;
    stream.onError(error -> log.debug("target {}: JFR stream error: {}", target, error.toString()));
  }

  @Override
  public String kind() {
    return "stream";
  }

  @Override
  public void setSettings(Map<String, String> settings) {
    stream.setSettings(settings);
  }

  @Override
  public void onEvent(String eventName, Consumer<RecordedEvent> consumer) {
    stream.onEvent(eventName, consumer);
  }

  @Override
  public void onFlush(Runnable action) {
    stream.onFlush(action);
  }

  @Override
  public void start() {
    stream.startAsync();
  }

  @Override
  public Duration inherentDelay() {
    return Duration.ZERO;
  }

  @Override
  public void close() {
    // The JDK closes the target's recording with the stream.
    stream.close();
  }
}
