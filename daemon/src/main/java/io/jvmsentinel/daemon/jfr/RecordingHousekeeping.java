package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The chores of the daemon's recordings on one target, done by the session's watchdog: renewing the
 * feed recording's lease, reading its size for the gauge, and closing the recordings that daemons
 * left behind ({@link RecordingOwner#mayClose}, e.g. after a kill -9), never the live ones.
 */
final class RecordingHousekeeping {
  private static final Logger log = LoggerFactory.getLogger(JfrStreamSession.class);

  private final String target;
  private final RecordingOwner owner;
  private final JfrStreamMeters meters;

  RecordingHousekeeping(String target, RecordingOwner owner, JfrStreamMeters meters) {
    this.target = target;
    this.owner = owner;
    this.meters = meters;
  }

  /**
   * The daemon's recordings on the target now, which leftover cleaning must not close: the feed's
   * ({@code feed} null when none runs) and the evidence recording.
   */
  static Set<Long> live(FeedOpener.OpenFeed feed, TargetEvidence evidence) {
    Set<Long> live = new HashSet<>();
    if (feed != null) {
      live.add(feed.recording().id());
    }
    Long evidenceId = evidence.recordingId();
    if (evidenceId != null) {
      live.add(evidenceId);
    }
    return live;
  }

  void renewLease(TargetRecording live) {
    try {
      live.renewLeaseIfDue(System.nanoTime());
    } catch (RuntimeException e) {
      // Retried next second; the lease outlasts minutes of failures, and the JMX session notices
      // a broken connection on its own.
      log.debug("target {}: renewing the JFR recording's lease failed: {}", target, e.toString());
    }
  }

  /** Reads the feed recording's size for the gauge, then closes leftovers; failures are logged. */
  void readSize(MBeanServerConnection mbeans, TargetRecording feed, Set<Long> live) {
    try {
      feed.size().ifPresent(meters::recordingSize);
      // A daemon that died since leaves a recording that stops with its lease: closed here.
      closeLeftovers(mbeans, live);
    } catch (IOException | JMException | RuntimeException e) {
      // The JMX session notices a broken connection on its own.
      log.debug("target {}: reading the target's JFR recordings failed: {}", target, e.toString());
    }
  }

  /** Closes what {@link RecordingOwner#mayClose} allows, keeping the recordings {@code live}. */
  void closeLeftovers(MBeanServerConnection mbeans, Set<Long> live)
      throws IOException, JMException {
    for (TargetFlightRecorder.Recording closed :
        TargetRecording.closeLeftovers(mbeans, owner, target, live)) {
      log.info(
          "target {}: closed JFR recording {} '{}' ({}, {} bytes) left behind by a jvm-sentinel"
              + " daemon",
          target,
          closed.id(),
          closed.name(),
          closed.state(),
          closed.size());
    }
  }
}
