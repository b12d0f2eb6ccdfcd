package io.jvmsentinel.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import jdk.jfr.consumer.RecordedEvent;
import jdk.management.jfr.RecordingInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chunk feed against this JVM as its target (its platform MBean server): the same JMX calls a
 * JDK 11 target answers (cloneRecording, openStream, readStream), the same chunk format.
 */
class ChunkFeedTest {
  private static final Duration PERIOD = Duration.ofSeconds(1);
  private static final Duration DELIVERED = Duration.ofSeconds(20);
  private static final String NAME = "jvm-sentinel@host-a/0123456789ab/self";

  @TempDir Path tmp;
  private final InProcessTarget target = new InProcessTarget();
  private final List<TargetRecording> opened = new ArrayList<>();
  private final List<String> started = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void close() throws IOException {
    opened.forEach(TargetRecording::close);
    target.close();
  }

  /** A started feed of thread starts, noting the names of the threads it is told about. */
  private TargetRecording feed(MBeanServerConnection connection) throws IOException {
    Path dir = Files.createTempDirectory(tmp, "feed-");
    TargetRecording recording =
        TargetRecording.openChunks(
            connection,
            dir,
            NAME,
            Duration.ofMinutes(2),
            16 * 1024 * 1024,
            TargetRecording.Lease.DEFAULT,
            "self",
            "jvm-sentinel-read@host-a/0123456789ab/self",
            PERIOD);
    opened.add(recording);
    EventFeed feed = recording.feed();
    feed.setSettings(
        Map.of("jdk.ThreadStart#enabled", "true", "jdk.ThreadStart#stackTrace", "true"));
    feed.onEvent("jdk.ThreadStart", event -> started.add(threadName(event)));
    feed.start();
    return recording;
  }

  private static String threadName(RecordedEvent event) {
    return event.getThread("thread") == null
        ? "?"
        : String.valueOf(event.getThread("thread").getJavaName());
  }

  private static void startThreads(String prefix, int count) throws InterruptedException {
    for (int i = 0; i < count; i++) {
      Thread thread = new Thread(() -> {}, prefix + i);
      thread.start();
      thread.join();
    }
  }

  private List<String> startedWith(String prefix) {
    synchronized (started) {
      return started.stream().filter(name -> name.startsWith(prefix)).toList();
    }
  }

  @Test
  void blocksAreSmallAndGrowOnlyWithWhatAReadBrings() {
    // The target keeps each stream's block buffer for minutes after it is closed (JDK 8u, 11):
    // 1 MB blocks every 2 s held 23-30 MB of a 64 MB target heap and put its GC at 40-50%.
    assertThat(ChunkFeed.blockSize(0)).isEqualTo(16 * 1024);
    assertThat(ChunkFeed.blockSize(130_000)).isEqualTo(16 * 1024);
    assertThat(ChunkFeed.blockSize(2_000_000)).isEqualTo(250_000);
    assertThat(ChunkFeed.blockSize(400_000_000)).isEqualTo(1024 * 1024);
  }

  @Test
  void everyEventRecordedReachesTheHandlerExactlyOnceOverManyReads() throws Exception {
    feed(target.connection);

    for (int round = 0; round < 3; round++) {
      startThreads("once-" + round + "-", 20);
      Thread.sleep(PERIOD.toMillis());
    }

    await().atMost(DELIVERED).untilAsserted(() -> assertThat(startedWith("once-")).hasSize(60));
    assertThat(startedWith("once-")).doesNotHaveDuplicates();
  }

  @Test
  void aNewFeedNeverHandsOutWhatTheOldOneRecordedBeforeIt() throws Exception {
    TargetRecording first = feed(target.connection);
    startThreads("first-", 10);
    await().atMost(DELIVERED).until(() -> startedWith("first-").size() == 10);
    first.close();
    startThreads("between-", 5);

    feed(target.connection);
    startThreads("second-", 10);

    await().atMost(DELIVERED).until(() -> startedWith("second-").size() == 10);
    Thread.sleep(2 * PERIOD.toMillis()); // two more reads: nothing old comes back
    assertThat(startedWith("first-")).hasSize(10);
    assertThat(startedWith("between-")).as("before the second feed's recording").isEmpty();
  }

  @Test
  void itsRecordingIsNamedBoundedLeasedOnDiskAndClosedWithTheFeedLeavingNoCopies()
      throws Exception {
    TargetRecording recording = feed(target.connection);
    RecordingInfo info = target.recording(recording.id()).orElseThrow();
    assertThat(info.getName()).isEqualTo(NAME);
    assertThat(info.getState()).isEqualTo("RUNNING");
    assertThat(info.getMaxAge()).as("seconds").isEqualTo(120);
    assertThat(info.isToDisk()).isTrue();
    assertThat(info.getDuration()).as("lease, seconds").isEqualTo(300);
    startThreads("closing-", 3);
    await().atMost(DELIVERED).until(() -> startedWith("closing-").size() == 3);

    recording.close();

    assertThat(target.recording(recording.id())).isEmpty();
    assertThat(target.recorder.getRecordings())
        .extracting(RecordingInfo::getName)
        .noneMatch(name -> name.contains(NAME) || name.startsWith("jvm-sentinel-read@"));
  }

  @Test
  void garbageFromTheTargetIsRefusedAndReadAgainSoNothingIsLost() throws Exception {
    AtomicInteger corrupted = new AtomicInteger();
    MBeanServerConnection hostile =
        new ForwardingConnection(target.connection) {
          @Override
          public Object invoke(
              ObjectName name, String operation, Object[] params, String[] signature)
              throws InstanceNotFoundException, MBeanException, ReflectionException, IOException {
            Object result = super.invoke(name, operation, params, signature);
            if ("readStream".equals(operation)
                && result instanceof byte[] bytes
                && corrupted.getAndIncrement() == 0) {
              byte[] garbage = bytes.clone();
              garbage[0] = 'X'; // not a chunk
              return garbage;
            }
            return result;
          }
        };
    feed(hostile);
    startThreads("refused-", 5);
    Thread.sleep(2 * PERIOD.toMillis());
    startThreads("after-", 5);

    await().atMost(DELIVERED).until(() -> startedWith("after-").size() == 5);
    assertThat(corrupted.get()).isGreaterThan(1);
    // The refused read is read again from the same point: nothing is lost.
    assertThat(startedWith("refused-")).hasSize(5);
  }
}
