package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.jmx.JvmIdentity;
import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.jfr.JfrStreamMeters.StartCause;
import io.jvmsentinel.daemon.support.DaemonThreads;
import io.jvmsentinel.daemon.target.ConnectFailure;
import io.jvmsentinel.daemon.target.TargetSession;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JFR event feed per target, riding on the target session's JMX connection: its life cycle.
 *
 * <p>Implementation notes. All feed management runs on this session's own thread (injected): a
 * start takes 0.5 to 1.2 s of remote calls and must not delay JMX polling. The feed starts when the
 * JMX connection comes up and closes when it goes away; a watchdog restarts a feed that stops
 * flushing (a remote stream whose target died fires neither {@code onClose} nor {@code onError}).
 * The moves are {@link StreamPhase}'s, made by {@link StreamLifecycle} on the injected clock.
 * Parts: which feed ({@link FeedChoice}) and opening it ({@link FeedOpener}, stream or chunks
 * behind {@link EventFeed}); the load on the target, thread storms, stack sampling ({@link
 * StreamLoadGuard}); lease and leftovers ({@link RecordingHousekeeping}); evidence on a bounded
 * thread of its own ({@link TargetEvidence}); meters ({@link JfrStreamMeters}). Overload: the
 * dispatcher sheds events later than {@code jfr.maxLag}; the load guard closes the stream during a
 * heavy thread storm (a running recording alone costs such a target much of its CPU).
 */
public final class JfrStreamSession implements TargetSession.ConnectionListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JfrStreamSession.class);

  private static final long WATCHDOG_MILLIS = 1000;

  /** The events recorded only so that evidence snapshots hold them (GcOverhead's collections). */
  public static final Set<String> EVIDENCE_ONLY_EVENTS =
      TargetEvidence.eventNames(TargetEvidence.EVIDENCE_ONLY);

  /** The least a snapshot holds after the evidence recording started (CodeCacheStatistics: 5 s). */
  public static final Duration EVIDENCE_MIN_RECORDED = TargetEvidence.EVIDENCE_MIN_RECORDED;

  private final String target;
  private final List<JfrEventHandler> handlers;
  private final JfrConfig config;
  private final Supplier<JvmIdentity> identity;
  private final StreamLifecycle lifecycle;
  private final JfrStreamMeters meters;
  private final StreamLoadGuard load;
  private final RecordingHousekeeping housekeeping;
  private final TargetEvidence evidence;
  private final FeedOpener opener;
  private final EventDispatcher dispatcher;
  private final ScheduledExecutorService thread;
  private final Clock clock;
  private final DiskBudget.Membership budget;

  // Written by the session thread only; the dump thread reads them.
  private volatile MBeanServerConnection mbeans;
  private volatile FeedOpener.OpenFeed feed;

  /** {@code thread}: the session's own ({@link #newThread}); tests drive one and the clock. */
  public JfrStreamSession(
      String target,
      List<JfrEventHandler> handlers,
      JfrConfig config,
      Supplier<JvmIdentity> identity,
      MeterRegistry registry,
      Tags tags,
      LocalJfrStorage storage,
      RecordingOwner owner,
      Duration evidenceWindow,
      Clock clock,
      ScheduledExecutorService thread) {
    this.target = target;
    this.handlers = List.copyOf(handlers);
    this.config = config;
    this.identity = identity;
    this.clock = clock;
    this.lifecycle = new StreamLifecycle(clock);
    this.dispatcher = EventDispatcher.of(target, registry, tags, clock, config);
    this.meters =
        new JfrStreamMeters(registry, tags, this.handlers, () -> lifecycle.state().streaming());
    this.load = new StreamLoadGuard(target, this.handlers, config, clock, meters);
    this.housekeeping = new RecordingHousekeeping(target, owner, meters);
    this.evidence =
        new TargetEvidence(
            target,
            config,
            owner,
            evidenceWindow,
            clock,
            meters,
            storage,
            () -> mbeans,
            lifecycle::state);
    this.opener =
        new FeedOpener(
            target,
            this.handlers,
            config,
            storage,
            owner,
            housekeeping,
            this.dispatcher,
            evidence.enabled());
    this.thread = thread;
    this.budget = storage.budget().join();
    if (config.enabled()) {
      thread.scheduleWithFixedDelay(
          this::watchdog, WATCHDOG_MILLIS, WATCHDOG_MILLIS, TimeUnit.MILLISECONDS);
    } else {
      lifecycle.disabled();
    }
  }

  /** The thread a session of {@code target} runs on in the daemon. */
  public static ScheduledExecutorService newThread(String target) {
    return Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("jfr-" + target));
  }

  /** Where the feed is in its life cycle; see {@link StreamPhase}. */
  StreamPhase phase() {
    return lifecycle.phase();
  }

  /** Whether the stream is up and events can flow. */
  public boolean streaming() {
    return lifecycle.state().streaming();
  }

  /** Whether the stream is closed because of a heavy thread storm (JFR-only alerts then hold). */
  public boolean stormPaused() {
    return load.paused();
  }

  /** The target's started-thread count read in the last second of a storm pause, or -1. */
  public long stormStartedThreads() {
    return load.startedThreads();
  }

  /** The events of the daemon's handlers the target's JVM does not have (known once started). */
  public List<String> missingEvents() {
    return opener.missingEvents();
  }

  /** {@code stream} or {@code chunks} while events flow, else null; for the API. */
  public String feedKind() {
    FeedOpener.OpenFeed live = feed;
    return live == null ? null : live.recording().feed().kind();
  }

  /** How late the latest event reached the handlers here, in seconds; NaN before the first. */
  public double lagSeconds() {
    long millis = dispatcher.currentLagMillis();
    return millis < 0 ? Double.NaN : millis / 1000.0;
  }

  /** Whether events are flowing, or why not; for the API. */
  public String state() {
    return lifecycle.state().describe();
  }

  @Override
  public void connected(JMXConnector connector, MBeanServerConnection connection) {
    thread.execute(
        () -> {
          mbeans = connection;
          lifecycle.connected();
          load.reset();
          if (config.enabled()) {
            start(StartCause.CONNECT);
          }
        });
  }

  @Override
  public void disconnected() {
    thread.execute(
        () -> {
          mbeans = null;
          stop();
          evidence.closeRecording();
          load.reset();
        });
  }

  private void start(StartCause cause) {
    FeedChoice choice = FeedChoice.of(config.feed(), identity.get());
    Instant started = clock.instant();
    try {
      FeedOpener.Outcome outcome =
          opener.open(
              mbeans, choice, RecordingHousekeeping.live(feed, evidence), lifecycle::flushed);
      if (outcome instanceof FeedOpener.Unavailable unavailable) {
        if (lifecycle.unavailable(unavailable.reason())) {
          log.info("target {}: {}", target, unavailable.reason());
        }
        return;
      }
      FeedOpener.OpenFeed opened = (FeedOpener.OpenFeed) outcome;
      feed = opened;
      evidence.feedStarted(opened.settings());
      load.streamStarted(opened.settings());
      lifecycle.started(choice.description(config.chunkPeriod()));
      meters.started(cause);
      log.info(
          "target {}: JFR {} started in {} ms with {} event types{}",
          target,
          choice.logName(config.chunkPeriod()),
          Duration.between(started, clock.instant()).toMillis(),
          opened.eventTypes(),
          opened.absent().isEmpty() ? "" : " (this JVM lacks " + opened.absent() + ")");
    } catch (IOException | JMException | RuntimeException e) {
      String message =
          (choice.chunks() ? "cannot start the JFR recording: " : "cannot start the JFR stream: ")
              + ConnectFailure.describe(e);
      if (lifecycle.startFailed(message)) {
        log.warn("target {}: {}; retrying while connected", target, message);
      }
    }
  }

  private void stop() {
    FeedOpener.OpenFeed closing = feed;
    if (closing != null) {
      feed = null;
      FeedOpener.close(closing, target);
      load.streamStopped();
      handlers.forEach(JfrEventHandler::streamStopped);
    }
    lifecycle.stopped();
    meters.recordingSize(-1);
  }

  private void watchdog() {
    try {
      if (mbeans == null) {
        return;
      }
      // Before the storm guard: the evidence recording keeps what a paused stream captured.
      evidence.renewLease();
      if (guardAgainstStorm()) {
        return;
      }
      FeedOpener.OpenFeed live = feed;
      if (live == null) {
        if (lifecycle.retryDue()) {
          start(StartCause.RETRY);
        }
        return;
      }
      Optional<Duration> silent = lifecycle.stalled(config.stallTimeout());
      if (silent.isPresent()) {
        log.warn(
            "target {}: JFR stream delivered nothing for {} ms; restarting it",
            target,
            silent.get().toMillis());
        stop();
        start(StartCause.STALLED);
        return;
      }
      load.sampleStacks(live.recording().feed());
      dispatcher.reportDrops();
      housekeeping.renewLease(live.recording());
      if (lifecycle.sizeCheckDue()) {
        housekeeping.readSize(mbeans, live.recording(), RecordingHousekeeping.live(feed, evidence));
        // Its start failed (a call that timed out on a busy target): tried again.
        evidence.start();
      }
    } catch (RuntimeException e) {
      log.warn("target {}: JFR watchdog failed: {}", target, e.toString(), e);
    }
  }

  /** Pauses or reopens the stream as the load guard says; true while paused (then left closed). */
  private boolean guardAgainstStorm() {
    StormPause.Action action = load.check(mbeans, feed != null);
    switch (action) {
      case PAUSE -> {
        stop();
        lifecycle.paused(load.pause());
      }
      case RESUME, PROBE -> {
        load.reopen(action);
        lifecycle.resuming();
        start(action == StormPause.Action.RESUME ? StartCause.STORM_OVER : StartCause.STORM_PROBE);
      }
      case NONE -> {} // Nothing changes.
    }
    return load.holdsClosed();
  }

  /** Counts an alert's snapshot of this target by what became of it. */
  public void countSnapshot(SnapshotOutcome outcome) {
    meters.snapshot(outcome);
  }

  /**
   * Why no snapshot of this target can be read (no JFR recording of it, nor one starting), or empty
   * when one can: a read waits for a recording that is starting ({@link #readEvidence}).
   */
  public Optional<String> evidenceUnavailable() {
    return evidence.unavailable(feed != null);
  }

  /**
   * Writes a snapshot of this target's evidence to {@code file} ({@link TargetEvidence#read}),
   * asking {@code admission} once the read has its turn, before it writes anything.
   */
  public Optional<CompletableFuture<RecordedEvidence>> readEvidence(
      Instant from, Instant to, Path file, DumpAdmission admission) {
    return evidence.read(from, to, file, admission);
  }

  @Override
  public void close() {
    budget.leave();
    evidence.close();
    try {
      thread
          .submit(
              () -> {
                stop();
                evidence.closeRecording();
              })
          .get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.debug("target {}: JFR stream did not close cleanly: {}", target, e.toString());
    }
    thread.shutdownNow();
  }
}
