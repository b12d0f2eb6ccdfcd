package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.daemon.config.JfrConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens one target's event feed, stream or chunks ({@link EventFeed}): only the handlers whose
 * event the target's JVM has are wired, leftovers of earlier daemons are closed first, and all
 * settings go in one {@code setSettings} call (one remote round trip instead of two per setting).
 * On failure nothing is left behind: the recording is closed and its directory deleted.
 */
final class FeedOpener {
  private static final Logger log = LoggerFactory.getLogger(JfrStreamSession.class);

  /** What came of an attempt: a started feed, or why the target can feed no events. */
  sealed interface Outcome permits OpenFeed, Unavailable {}

  /**
   * A started feed.
   *
   * @param eventTypes how many handlers are wired
   * @param absent the handlers' events the target's JVM lacks
   */
  record OpenFeed(
      TargetRecording recording,
      Path directory,
      Map<String, String> settings,
      int eventTypes,
      List<String> absent)
      implements Outcome {}

  /** The target cannot feed events (no JFR, or a stream asked of a JVM without streaming). */
  record Unavailable(String reason) implements Outcome {}

  private final String target;
  private final List<JfrEventHandler> handlers;
  private final JfrConfig config;
  private final StreamDirectories directories;
  private final DiskBudget budget;
  private final RecordingOwner owner;
  private final RecordingHousekeeping housekeeping;
  private final EventDispatcher dispatcher;
  private final boolean evidence;
  // The handlers' events the target's JVM lacks, as of the last start (e.g. jdk.Deoptimization
  // before JDK 14); read by HTTP threads and detection.
  private volatile List<String> missingEvents = List.of();

  /** {@code evidence}: whether snapshots are on (then the evidence-only events are recorded). */
  FeedOpener(
      String target,
      List<JfrEventHandler> handlers,
      JfrConfig config,
      LocalJfrStorage storage,
      RecordingOwner owner,
      RecordingHousekeeping housekeeping,
      EventDispatcher dispatcher,
      boolean evidence) {
    this.target = target;
    this.handlers = handlers;
    this.config = config;
    this.directories = storage.directories();
    this.budget = storage.budget();
    this.owner = owner;
    this.housekeeping = housekeeping;
    this.dispatcher = dispatcher;
    this.evidence = evidence;
  }

  /**
   * Opens and starts the feed {@code choice} says, keeping the recordings {@code live} while
   * closing leftovers, and calls {@code onFlush} at each flush.
   */
  Outcome open(MBeanServerConnection mbeans, FeedChoice choice, Set<Long> live, Runnable onFlush)
      throws IOException, JMException {
    TargetFlightRecorder recorder = new TargetFlightRecorder(mbeans);
    // A target without the FlightRecorder MBean says so below: the reason that holds on any JDK.
    if (choice.streamOnTooOldJvm() && maybePresent(recorder)) {
      return new Unavailable(choice.tooOldReason());
    }
    if (!recorder.present()) {
      return new Unavailable(
          "the target has no FlightRecorder MBean (a JDK 8 before 8u262, or a JVM without"
              + " JFR), so only JMX metrics are collected");
    }
    Set<String> offered = recorder.eventTypeNames();
    List<JfrEventHandler> active = new ArrayList<>();
    List<String> absent = new ArrayList<>();
    for (JfrEventHandler handler : handlers) {
      if (offered.contains(handler.eventName())) {
        active.add(handler);
      } else {
        absent.add(handler.eventName());
      }
    }
    missingEvents = List.copyOf(absent);
    TargetRecording opened = null;
    Path dir = null;
    try {
      housekeeping.closeLeftovers(mbeans, live);
      dir = directories.create(target);
      opened = openRecording(mbeans, choice, dir);
      EventFeed feed = opened.feed();
      Map<String, String> settings = settings(active);
      if (evidence && offered.contains("jdk.GarbageCollection")) {
        settings.putAll(TargetEvidence.EVIDENCE_ONLY);
      }
      feed.setSettings(settings);
      for (JfrEventHandler handler : active) {
        feed.onEvent(handler.eventName(), dispatcher.consumerFor(handler, feed.inherentDelay()));
      }
      feed.onFlush(onFlush);
      onFlush.run();
      feed.start();
      return new OpenFeed(opened, dir, settings, active.size(), absent);
    } catch (IOException | JMException | RuntimeException e) {
      if (opened != null) {
        closeQuietly(opened, target);
      }
      StreamDirectories.deleteRecursively(dir);
      throw e;
    }
  }

  /** The handlers' events the target's JVM lacks (known once a feed was opened). */
  List<String> missingEvents() {
    return missingEvents;
  }

  /** Whether the target may have the FlightRecorder MBean (true when it cannot be asked). */
  private static boolean maybePresent(TargetFlightRecorder recorder) {
    try {
      return recorder.present();
    } catch (IOException e) {
      return true;
    }
  }

  static Map<String, String> settings(List<JfrEventHandler> active) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (JfrEventHandler handler : active) {
      settings.putAll(handler.settings().toJfrSettings(handler.eventName()));
    }
    return settings;
  }

  /** Closes a started feed, its recording and its directory. */
  static void close(OpenFeed feed, String target) {
    closeQuietly(feed.recording(), target);
    StreamDirectories.deleteRecursively(feed.directory());
  }

  /** Closes a feed and its recording; a failure is only logged (the lease stops it). */
  private static void closeQuietly(TargetRecording closing, String target) {
    try {
      closing.close();
    } catch (RuntimeException e) {
      log.debug("target {}: closing the JFR stream failed: {}", target, e.toString());
    }
  }

  private TargetRecording openRecording(MBeanServerConnection mbeans, FeedChoice choice, Path dir)
      throws IOException, JMException {
    String name = owner.recordingName(target);
    // The target's share of the disk budget, at most jfr.maxSizeMb: it bounds each chunk read.
    long maxSize = budget.streamBytesPerTarget();
    if (choice.chunks()) {
      return TargetRecording.openChunks(
          mbeans,
          dir,
          name,
          config.maxAge(),
          maxSize,
          TargetRecording.Lease.DEFAULT,
          target,
          owner.readCopyName(target),
          config.chunkPeriod());
    }
    return TargetRecording.openStream(
        mbeans, dir, target, name, config.maxAge(), maxSize, TargetRecording.Lease.DEFAULT);
  }
}
