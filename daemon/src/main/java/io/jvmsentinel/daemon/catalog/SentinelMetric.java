package io.jvmsentinel.daemon.catalog;

import io.jvmsentinel.collectors.catalog.MeterDefinition;
import io.jvmsentinel.collectors.catalog.MeterKind;
import io.jvmsentinel.collectors.catalog.MeterSpec;
import io.micrometer.core.instrument.binder.BaseUnits;

/**
 * The daemon's own meters ({@code jvm_sentinel_*}): connections, polls, JFR streams, alerts,
 * notifications and exporters. Registered only through these entries; docs/metrics.md lists them
 * after the collectors' {@code Metric} catalog.
 */
public enum SentinelMetric implements MeterDefinition {
  SENTINEL_TARGET_UP(
      "jvm.sentinel.target.up",
      MeterKind.GAUGE,
      null,
      "1 while the daemon holds a working JMX connection to the target, else 0",
      "",
      "daemon"),
  SENTINEL_CONNECTION_ATTEMPTS(
      "jvm.sentinel.connection.attempts",
      MeterKind.COUNTER,
      null,
      "JMX connection attempts to the target",
      "",
      "daemon"),
  SENTINEL_CONNECTION_FAILURES(
      "jvm.sentinel.connection.failures",
      MeterKind.COUNTER,
      null,
      "Failed JMX connection attempts and lost connections, by reason",
      "reason (`refused`, `timeout`, `auth`, `tls`, `lost`, `error`)",
      "daemon"),
  SENTINEL_HTTP_AUTH_FAILURES(
      "jvm.sentinel.http.auth.failures",
      MeterKind.COUNTER,
      null,
      "HTTP requests to /metrics or /api refused with 401 because the credential was missing or"
          + " wrong (only when http.auth is configured)",
      "reason (`missing`, `invalid`)",
      "daemon"),
  SENTINEL_POLL_DURATION(
      "jvm.sentinel.poll.duration",
      MeterKind.TIMER,
      "seconds",
      "Time taken by one JMX poll of the target (all pollers)",
      "",
      "daemon"),
  SENTINEL_SIGNAL_POLL_DURATION(
      "jvm.sentinel.signal.poll.duration",
      MeterKind.TIMER,
      "seconds",
      "Time taken by one fast detection poll of the target: the few values detection needs, read"
          + " every detection.signalPollInterval while the target has no JFR event source",
      "",
      "daemon"),
  SENTINEL_ALERT_ACTIVE(
      "jvm.sentinel.alert.active",
      MeterKind.GAUGE,
      null,
      "Alerts of a rule firing for the target now (0 when none; several keys, e.g. segments, can"
          + " fire at once)",
      "alert, severity",
      "daemon (detection engine)"),
  SENTINEL_TARGET_WARMING_UP(
      "jvm.sentinel.target.warming.up",
      MeterKind.GAUGE,
      null,
      "1 while the target's JIT is warming up (its first minutes, longer while the compile rate"
          + " keeps falling): compilation bursts then are expected, and JIT rules fire only on"
          + " unambiguous churn; 0 after",
      "",
      "daemon (detection engine)"),
  SENTINEL_JFR_AVAILABLE(
      "jvm.sentinel.jfr.available",
      MeterKind.GAUGE,
      null,
      "1 while JFR events from the target flow (a stream on JDK 16+, chunk reads on JDK 11 and"
          + " 8u262+), 0 when the target has no FlightRecorder MBean, JFR is off, or the feed is"
          + " down or paused",
      "",
      "daemon"),
  SENTINEL_JFR_EVENTS(
      "jvm.sentinel.jfr.events",
      MeterKind.COUNTER,
      null,
      "JFR events received from the target, by event type",
      "event",
      "daemon"),
  SENTINEL_JFR_EVENTS_DROPPED(
      "jvm.sentinel.jfr.events.dropped",
      MeterKind.COUNTER,
      null,
      "JFR events not fully processed, by event type and reason (lag: the event arrived later than"
          + " jfr.maxLag, so only its count was kept); the start rate stays exact, creator sites"
          + " become a sample. Logged at most once a minute",
      "event, reason",
      "daemon"),
  SENTINEL_JFR_STACK_SAMPLING(
      "jvm.sentinel.jfr.stack.sampling",
      MeterKind.GAUGE,
      null,
      "1 while jdk.ThreadStart stack traces are recorded only in sampling windows (the start rate"
          + " is above jfr.stackSamplingAboveRate), 0 while every start carries its stack",
      "",
      "daemon"),
  SENTINEL_JFR_STORM_PAUSED(
      "jvm.sentinel.jfr.storm.paused",
      MeterKind.GAUGE,
      null,
      "1 while the JFR stream is closed because the target starts threads faster than"
          + " jfr.stormPauseAboveRate (a running recording alone costs such a target much of its"
          + " CPU); JMX metrics continue, JFR-only alerts hold their state",
      "",
      "daemon"),
  SENTINEL_JFR_HANDLER_ERRORS(
      "jvm.sentinel.jfr.handler.errors",
      MeterKind.COUNTER,
      null,
      "JFR events a handler failed to process (logged once per event type)",
      "event",
      "daemon"),
  SENTINEL_JFR_LAG(
      "jvm.sentinel.jfr.lag",
      MeterKind.TIMER,
      "seconds",
      "Time from the end of a JFR event on the target to its processing in the daemon",
      "",
      "daemon"),
  SENTINEL_JFR_LAG_CURRENT(
      "jvm.sentinel.jfr.lag.current",
      MeterKind.GAUGE,
      "seconds",
      "Lag of the latest JFR event handled (end on the target to processing here): how far behind"
          + " the daemon is now; above jfr.maxLag it sheds thread events until it has caught up",
      "",
      "daemon"),
  SENTINEL_JFR_STREAM_STARTS(
      "jvm.sentinel.jfr.stream.starts",
      MeterKind.COUNTER,
      null,
      "JFR streams started for the target, by cause (connect, stalled, retry; storm-over and"
          + " storm-probe after a storm pause)",
      "cause",
      "daemon"),
  SENTINEL_JFR_TARGET_RECORDING_SIZE(
      "jvm.sentinel.jfr.target.recording.size",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "Size of the daemon's JFR recording on the target as the target reports it (JFR updates it"
          + " when a chunk rotates, so it often reads 0 while streaming; bounded by jfr.maxSizeMb)",
      "",
      "daemon (JMX `FlightRecorderMXBean` `Recordings`)"),
  SENTINEL_JFR_EVIDENCE_DROPPED(
      "jvm.sentinel.jfr.evidence.dropped",
      MeterKind.COUNTER,
      null,
      "JFR evidence dumps not written because the target's dump queue was full (one dump runs and"
          + " at most two wait; alerts firing together want the same minutes of events); logged",
      "",
      "daemon"),
  SENTINEL_JFR_EVIDENCE_SNAPSHOTS(
      "jvm.sentinel.jfr.evidence.snapshots",
      MeterKind.COUNTER,
      null,
      "JFR evidence snapshots of alerts by outcome: written (checked whole and named in the alert),"
          + " empty (the target held none of the incident's events for the alert's window), failed"
          + " (could not be read, filtered or checked), no_space (skipped before any read: the"
          + " disk budget, storage.maxDiskMb, had no room even after deleting the oldest"
          + " snapshots); an empty, failed or skipped snapshot is never published, and the alert"
          + " says why it has none",
      "outcome",
      "daemon"),
  SENTINEL_NOTIFICATION_QUEUE(
      "jvm.sentinel.notification.queue",
      MeterKind.GAUGE,
      null,
      "Alert notifications waiting in a sink's delivery queue",
      "sink",
      "daemon"),
  SENTINEL_NOTIFICATIONS(
      "jvm.sentinel.notifications",
      MeterKind.COUNTER,
      null,
      "Alert notifications by sink and outcome: delivered, retried (an attempt failed and will be"
          + " repeated), failed (rejected for good, e.g. HTTP 400, and skipped) or dropped (the"
          + " sink's queue was full)",
      "sink, outcome (delivered, retried, failed, dropped)",
      "daemon"),
  SENTINEL_DOGSTATSD_ERRORS(
      "jvm.sentinel.dogstatsd.errors",
      MeterKind.COUNTER,
      null,
      "DogStatsD packets or messages that did not reach the Datadog Agent: send failures (e.g. the"
          + " agent's socket is missing) and messages dropped because the client's queue was full",
      "reason (send, queue_full)",
      "daemon"),
  SENTINEL_TARGETS(
      "jvm.sentinel.targets",
      MeterKind.GAUGE,
      null,
      "Targets watched now, by the source that wants them (`config`: the file and command line;"
          + " `discovery.*`: a discovery provider)",
      "source",
      "daemon"),
  SENTINEL_TARGETS_SKIPPED(
      "jvm.sentinel.targets.skipped",
      MeterKind.GAUGE,
      null,
      "Targets a source wants that the daemon does not watch, by reason (`max_targets`: over"
          + " `discovery.maxTargets`; `same_name`: another source has the name; `same_jvm`: the"
          + " same address is watched under another name)",
      "reason",
      "daemon"),
  SENTINEL_POLL_ERRORS(
      "jvm.sentinel.poll.errors",
      MeterKind.COUNTER,
      null,
      "Poller runs that could not read what they expected from the target (logged once per"
          + " connection and poller); the other pollers carry on",
      "poller, reason (`missing`: an MBean, attribute or operation the target lacks, e.g. a"
          + " non-HotSpot JVM, or `codecache-state` on JDK 8 (counted once per connection);"
          + " `unexpected`: data of another shape or type than expected; `error`: the target"
          + " failed the call)",
      "daemon");

  private final MeterSpec spec;

  SentinelMetric(
      String meterName,
      MeterKind kind,
      String baseUnit,
      String description,
      String tagKeys,
      String source) {
    this.spec = new MeterSpec(meterName, kind, baseUnit, description, tagKeys, source);
  }

  @Override
  public MeterSpec spec() {
    return spec;
  }
}
