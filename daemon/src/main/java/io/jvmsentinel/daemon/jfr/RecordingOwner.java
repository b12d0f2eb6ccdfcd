package io.jvmsentinel.daemon.jfr;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Who this daemon is on a target's list of recordings: its recordings are named {@code
 * jvm-sentinel@<host>/<instance>/<target>}, where the instance is random per daemon process, so two
 * daemons on one host, or a daemon and its restarted successor, never share a name.
 *
 * <p>Which recordings the daemon may close ({@link #mayClose}): only ones a jvm-sentinel daemon
 * named, and of those only (1) this daemon's own earlier recording (feed or evidence) for the same
 * target that is not a live one, and (2) any jvm-sentinel recording in state {@code STOPPED}. A
 * daemon gives its recording a lease ({@code duration}, renewed while its stream runs: {@link
 * TargetRecording}), so the recording of a daemon that died stops on its own once the lease runs
 * out; stopped, no stream reads it any more. A running recording of another daemon is never
 * touched, whether that daemon is alive or not: it stops within a lease and is closed by the next
 * daemon that connects. Recordings named by anybody else (JMC, jcmd, an APM agent, a plain {@code
 * RemoteRecordingStream}, the {@code Clone of ...} a dump makes) never match.
 *
 * <p>A chunk feed reads its recording through stopped copies it names {@code
 * jvm-sentinel-read@<host>/<instance>/<target>} and closes at once; a copy left by a daemon killed
 * in the middle of a read would hold the target's chunks on disk for good, so any such copy stopped
 * over {@link #READ_COPY_GRACE} ago is closed (a read takes well under a second).
 */
public record RecordingOwner(String host, String instance) {
  static final String PREFIX = "jvm-sentinel@";
  static final String READ_COPY_PREFIX = "jvm-sentinel-read@";
  static final Duration READ_COPY_GRACE = Duration.ofMinutes(1);

  public RecordingOwner {
    Objects.requireNonNull(host);
    Objects.requireNonNull(instance);
    if (host.contains("/") || instance.contains("/") || instance.isEmpty()) {
      throw new IllegalArgumentException("host and instance must not contain '/': " + host);
    }
  }

  /** This daemon process: its host name and a fresh random instance id. */
  public static RecordingOwner forThisProcess() {
    byte[] random = new byte[6];
    ThreadLocalRandom.current().nextBytes(random);
    return new RecordingOwner(hostName().replace('/', '_'), HexFormat.of().formatHex(random));
  }

  /** The name of this daemon's recording for {@code target}. */
  String recordingName(String target) {
    return PREFIX + host + "/" + instance + "/" + target;
  }

  /**
   * The name of this daemon's evidence recording for {@code target} ({@link EvidenceRecording}).
   */
  String evidenceRecordingName(String target) {
    return recordingName(target) + " evidence";
  }

  /** The name of the stopped copies a chunk feed reads its recording for {@code target} through. */
  String readCopyName(String target) {
    return READ_COPY_PREFIX + host + "/" + instance + "/" + target;
  }

  /**
   * Whether the daemon watching {@code target} through its recordings {@code live} (the feed's and
   * the evidence recording, when open) may close {@code recording} at {@code now}; see the class
   * comment.
   */
  boolean mayClose(
      TargetFlightRecorder.Recording recording, String target, Set<Long> live, Instant now) {
    if (live.contains(recording.id()) || "CLOSED".equals(recording.state())) {
      return false;
    }
    String name = recording.name();
    if (name.startsWith(READ_COPY_PREFIX) && name.indexOf('/', READ_COPY_PREFIX.length()) > 0) {
      return "STOPPED".equals(recording.state())
          && recording.stopTimeMillis() > 0
          && now.toEpochMilli() - recording.stopTimeMillis() > READ_COPY_GRACE.toMillis();
    }
    if (name.equals(recordingName(target)) || name.equals(evidenceRecordingName(target))) {
      return true;
    }
    // Older daemons named their recording jvm-sentinel@<host>, without a lease: not provably
    // stopped, so left alone (their maxAge/maxSize bound them).
    return name.startsWith(PREFIX)
        && name.indexOf('/', PREFIX.length()) > 0
        && "STOPPED".equals(recording.state());
  }

  private static String hostName() {
    String host = System.getenv("HOSTNAME");
    if (host != null && !host.isBlank()) {
      return host;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
