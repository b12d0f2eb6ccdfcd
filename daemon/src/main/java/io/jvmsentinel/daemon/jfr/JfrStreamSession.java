package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.jfr.handler.LoadCountingHandler;
import io.jvmsentinel.collectors.jmx.JvmIdentity;
import io.jvmsentinel.collectors.jmx.ObjectNames;
import io.jvmsentinel.daemon.catalog.SentinelMetric;
import io.jvmsentinel.daemon.config.Durations;
import io.jvmsentinel.daemon.config.JfrConfig;
import io.jvmsentinel.daemon.logging.DropLog;
import io.jvmsentinel.daemon.target.ConnectFailure;
import io.jvmsentinel.daemon.target.TargetSession;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One remote JFR stream per target, riding on the target session's JMX connection: its lifecycle.
 *
 * <p>Implementation notes. All stream management runs on this session's own thread: starting a
 * stream takes 0.5 to 1.2 s of remote calls and must not delay JMX polling. The stream is started
 * when the JMX connection comes up and closed when it goes away; a watchdog restarts a stream that
 * stops flushing, because a remote stream whose target died fires neither {@code onClose} nor
 * {@code onError}: it just goes silent. Only handlers whose event the target's JVM has are wired,
 * and all settings go in one {@code setSettings} call (one remote round trip instead of two per
 * setting). The parts with a job of their own: the target-side recording, identified, named,
 * bounded and leased, and the leftovers the daemon may close ({@link TargetRecording}, {@link
 * RecordingOwner}); what the stream may cost the target ({@link StreamLoadPolicy}); evidence dumps
 * on a bounded thread of their own ({@link EvidenceDumps}), so a minute-long dump never stalls the
 * watchdog.
 *
 * <p>Overload: the dispatcher sheds hot events that arrive later than {@code jfr.maxLag} (counted
 * in {@code jvm_sentinel_jfr_events_dropped_total}, logged here at most once a minute), and at high
 * thread start rates this session switches the stack traces of thread starts, monitor enters and
 * parks ({@link SampledStacks}) to short sampling windows on the live stream: one {@code
 * setSettings} call with the whole settings map, because a recording's {@code setSettings} replaces
 * all of its settings. Above {@code jfr.stormPauseAboveRate} thread starts/s the stream is closed
 * once it has captured the storm's onset, and opened again when the storm is over or for a periodic
 * probe: a running recording alone costs such a target much of its CPU (+43% per thread start on
 * JDK 17, measured).
 */
public final class JfrStreamSession implements TargetSession.ConnectionListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(JfrStreamSession.class);

  /** Remote streaming (JMX {@code FlightRecorderMXBean.openStream}) arrived in JDK 16. */
  static final int FIRST_STREAMING_JDK = 16;

  private static final long WATCHDOG_MILLIS = 1000;
  private static final long RETRY_MILLIS = 10_000;
  private static final long SIZE_CHECK_MILLIS = 10_000;
  private static final Duration DROP_LOG_INTERVAL = Duration.ofMinutes(1);

  /**
   * Events recorded only so that evidence snapshots hold them, read by no handler: GcOverhead
   * judges GC notifications over JMX, and its snapshot shows the collections.
   */
  static final Map<String, String> EVIDENCE_ONLY =
      Map.of("jdk.GarbageCollection#enabled", "true", "jdk.GarbageCollection#threshold", "0 ms");

  /** The event names of {@link #EVIDENCE_ONLY}. */
  public static final Set<String> EVIDENCE_ONLY_EVENTS = eventNames(EVIDENCE_ONLY);

  /** How much longer than a snapshot's window the evidence recording keeps chunks. */
  private static final Duration EVIDENCE_MARGIN = Duration.ofMinutes(1);

  private static final Duration EVIDENCE_RETRY = Duration.ofSeconds(2);

  /** How long a snapshot waits for an evidence recording that is starting. */
  static final Duration EVIDENCE_START_WAIT = Duration.ofSeconds(30);

  /** The least a snapshot holds after the evidence recording started (CodeCacheStatistics: 5 s). */
  public static final Duration EVIDENCE_MIN_RECORDED = Duration.ofSeconds(10);

  private final String target;
  private final List<JfrEventHandler> handlers;
  private final JfrConfig config;
  private final Supplier<JvmIdentity> identity;
  private final StreamDirectories directories;
  private final RecordingOwner owner;
  private final Duration evidenceWindow;
  private final EventDispatcher dispatcher;
  private final DropLog drops = new DropLog(DROP_LOG_INTERVAL);
  private final LoadCountingHandler loadCounter;
  private final SampledStacks sampledStacks;
  private final StreamLoadPolicy load;
  private final AtomicInteger stacksSampledGauge = new AtomicInteger();
  private final AtomicInteger stormPausedGauge = new AtomicInteger();
  private final AtomicLong startedThreads = new AtomicLong(-1);
  private final ScheduledExecutorService thread;
  private final EvidenceDumps dumps;
  private final Map<SnapshotOutcome, Counter> snapshotOutcomes =
      new EnumMap<>(SnapshotOutcome.class);
  private final AtomicLong recordingSize = new AtomicLong(-1);
  private final Counter startsOnConnect;
  private final Counter startsAfterStall;
  private final Counter startsOnRetry;
  private final Counter startsAfterStorm;
  private final Counter startsForProbe;

  // Written by the session thread only; the dump thread reads them.
  private volatile MBeanServerConnection mbeans;
  private volatile TargetRecording recording;
  private volatile EvidenceRecording evidence;
  private volatile Set<String> evidenceEvents = Set.of();
  private Path directory;
  private long nextRetry;
  private long nextSizeCheck;
  private String lastFailure;
  private Map<String, String> liveSettings;
  private volatile long lastFlushNanos;
  // The handlers' events the target's JVM lacks, as of the last start (e.g. jdk.Deoptimization
  // before JDK 14); read by HTTP threads and detection.
  private volatile List<String> missingEvents = List.of();
  // Written by the session thread only; read by HTTP threads and the gauge.
  private volatile StreamState published = StreamState.NOT_STARTED;

  public JfrStreamSession(
      String target,
      List<JfrEventHandler> handlers,
      JfrConfig config,
      Supplier<JvmIdentity> identity,
      MeterRegistry registry,
      Tags tags,
      StreamDirectories directories,
      RecordingOwner owner,
      Duration evidenceWindow) {
    this.target = target;
    this.handlers = List.copyOf(handlers);
    this.config = config;
    this.identity = identity;
    this.directories = directories;
    this.owner = owner;
    this.evidenceWindow = evidenceWindow;
    this.dispatcher =
        new EventDispatcher(
            target,
            registry,
            tags,
            Clock.systemUTC(),
            config.maxLag(),
            config.simulatedEventCost(),
            drops);
    this.loadCounter =
        this.handlers.stream()
            .filter(LoadCountingHandler.class::isInstance)
            .map(LoadCountingHandler.class::cast)
            .findFirst()
            .orElse(null);
    this.sampledStacks = new SampledStacks(this.handlers);
    this.load =
        new StreamLoadPolicy(
            config.stormPauseEnabled()
                ? new StormPause(
                    config.stormPauseAboveRate(),
                    config.stormPauseCapture(),
                    config.stormPauseProbeEvery())
                : null,
            loadCounter != null && config.stackSamplingEnabled()
                ? new StackSampling(
                    config.stackSamplingAboveRate(),
                    config.stackSamplingWindow(),
                    config.stackSamplingEvery())
                : null,
            loadCounter != null);
    SentinelMetric.SENTINEL_JFR_STACK_SAMPLING.gauge(
        registry, tags, stacksSampledGauge, AtomicInteger::get);
    SentinelMetric.SENTINEL_JFR_STORM_PAUSED.gauge(
        registry, tags, stormPausedGauge, AtomicInteger::get);
    this.handlers.forEach(handler -> handler.bindTo(registry));
    SentinelMetric.SENTINEL_JFR_AVAILABLE.gauge(
        registry, tags, this, session -> session.published.streaming() ? 1 : 0);
    SentinelMetric.SENTINEL_JFR_TARGET_RECORDING_SIZE.gauge(
        registry, tags, recordingSize, size -> size.get() < 0 ? Double.NaN : size.get());
    this.startsOnConnect =
        SentinelMetric.SENTINEL_JFR_STREAM_STARTS.counter(registry, tags.and("cause", "connect"));
    this.startsAfterStall =
        SentinelMetric.SENTINEL_JFR_STREAM_STARTS.counter(registry, tags.and("cause", "stalled"));
    this.startsOnRetry =
        SentinelMetric.SENTINEL_JFR_STREAM_STARTS.counter(registry, tags.and("cause", "retry"));
    this.startsAfterStorm =
        SentinelMetric.SENTINEL_JFR_STREAM_STARTS.counter(
            registry, tags.and("cause", "storm-over"));
    this.startsForProbe =
        SentinelMetric.SENTINEL_JFR_STREAM_STARTS.counter(
            registry, tags.and("cause", "storm-probe"));
    this.dumps =
        new EvidenceDumps(
            target, SentinelMetric.SENTINEL_JFR_EVIDENCE_DROPPED.counter(registry, tags));
    for (SnapshotOutcome outcome : SnapshotOutcome.values()) {
      snapshotOutcomes.put(
          outcome,
          SentinelMetric.SENTINEL_JFR_EVIDENCE_SNAPSHOTS.counter(
              registry, tags.and("outcome", outcome.tag())));
    }
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "jfr-" + target);
              t.setDaemon(true);
              return t;
            });
    if (config.enabled()) {
      thread.scheduleWithFixedDelay(
          this::watchdog, WATCHDOG_MILLIS, WATCHDOG_MILLIS, TimeUnit.MILLISECONDS);
    } else {
      published = published.withReason("disabled by configuration (jfr.enabled: false)");
    }
  }

  /** Whether the stream is up and events can flow. */
  public boolean streaming() {
    return published.streaming();
  }

  /** Whether the stream is closed because of a heavy thread storm (JFR-only alerts then hold). */
  public boolean stormPaused() {
    return stormPausedGauge.get() == 1;
  }

  /**
   * The target's {@code TotalStartedThreadCount} as read in the last second while the stream was
   * paused for a storm (fresher than the JMX poll), or -1.
   */
  public long stormStartedThreads() {
    return stormPaused() ? startedThreads.get() : -1;
  }

  /** The events of the daemon's handlers the target's JVM does not have (known once started). */
  public List<String> missingEvents() {
    return missingEvents;
  }

  /** {@code stream} or {@code chunks} while events flow, else null; for the API. */
  public String feedKind() {
    TargetRecording live = recording;
    return live == null ? null : live.feed().kind();
  }

  /**
   * How late the latest event reached the handlers (event end on the target to processing here), in
   * seconds; NaN before the first event.
   */
  public double lagSeconds() {
    long millis = dispatcher.currentLagMillis();
    return millis < 0 ? Double.NaN : millis / 1000.0;
  }

  /** Whether events are flowing, or why not; for the API. */
  public String state() {
    return published.describe();
  }

  @Override
  public void connected(JMXConnector connector, MBeanServerConnection connection) {
    thread.execute(
        () -> {
          mbeans = connection;
          nextRetry = 0;
          resetLoad();
          if (config.enabled()) {
            start(startsOnConnect);
          }
        });
  }

  @Override
  public void disconnected() {
    thread.execute(
        () -> {
          mbeans = null;
          stop();
          closeEvidence();
          resetLoad();
        });
  }

  private void start(Counter cause) {
    JvmIdentity jvm = identity.get();
    int version = jvm == null ? 0 : jvm.featureVersion();
    boolean streamable = version <= 0 || version >= FIRST_STREAMING_JDK;
    boolean chunks =
        config.feed() == JfrConfig.Feed.CHUNKS
            || (config.feed() == JfrConfig.Feed.AUTO && !streamable);
    // A target without the FlightRecorder MBean says so below: the reason that holds on any JDK.
    if (!chunks && !streamable && flightRecorderMaybePresent()) {
      // Measured: a JDK 11 target accepts a remote stream without error and never sends an event.
      unavailable(
          "the target runs Java "
              + version
              + "; remote JFR streaming needs Java "
              + FIRST_STREAMING_JDK
              + " or newer (jfr.feed: stream), so only JMX metrics are collected");
      return;
    }
    TargetFlightRecorder recorder = new TargetFlightRecorder(mbeans);
    TargetRecording opened = null;
    Path dir = null;
    long started = System.nanoTime();
    try {
      if (!recorder.present()) {
        unavailable(
            "the target has no FlightRecorder MBean (a JDK 8 before 8u262, or a JVM without"
                + " JFR), so only JMX metrics are collected");
        return;
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
      closeLeftovers(liveIds());
      dir = directories.create(target);
      String name = owner.recordingName(target);
      long maxSize = config.maxSizeMb() * 1024 * 1024;
      opened =
          chunks
              ? TargetRecording.openChunks(
                  mbeans,
                  dir,
                  name,
                  config.maxAge(),
                  maxSize,
                  TargetRecording.Lease.DEFAULT,
                  target,
                  owner.readCopyName(target),
                  config.chunkPeriod())
              : TargetRecording.openStream(
                  mbeans,
                  dir,
                  target,
                  name,
                  config.maxAge(),
                  maxSize,
                  TargetRecording.Lease.DEFAULT);
      EventFeed feed = opened.feed();
      Map<String, String> settings = settings(active);
      if (!evidenceWindow.isZero() && offered.contains("jdk.GarbageCollection")) {
        settings.putAll(EVIDENCE_ONLY);
      }
      feed.setSettings(settings);
      for (JfrEventHandler handler : active) {
        feed.onEvent(handler.eventName(), dispatcher.consumerFor(handler, feed.inherentDelay()));
      }
      feed.onFlush(() -> lastFlushNanos = System.nanoTime());
      lastFlushNanos = System.nanoTime();
      feed.start();
      recording = opened;
      directory = dir;
      liveSettings = settings;
      evidenceEvents = eventNames(settings);
      startEvidence();
      resetStackSampling();
      lastFailure = null;
      published = StreamState.flowing(feedDescription(chunks, version));
      cause.increment();
      log.info(
          "target {}: JFR {} started in {} ms with {} event types{}",
          target,
          chunks ? "chunk reads every " + Durations.format(config.chunkPeriod()) : "stream",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
          active.size(),
          absent.isEmpty() ? "" : " (this JVM lacks " + absent + ")");
    } catch (IOException | JMException | RuntimeException e) {
      if (opened != null) {
        closeQuietly(opened);
      }
      StreamDirectories.deleteRecursively(dir);
      nextRetry = System.currentTimeMillis() + RETRY_MILLIS;
      String message =
          (chunks ? "cannot start the JFR recording: " : "cannot start the JFR stream: ")
              + ConnectFailure.describe(e);
      if (!message.equals(lastFailure)) {
        log.warn("target {}: {}; retrying while connected", target, message);
        lastFailure = message;
      }
      published = published.withReason(message);
    }
  }

  /** What {@code /api/v1/targets} says of a running feed. */
  private String feedDescription(boolean chunks, int version) {
    if (!chunks) {
      return "streaming";
    }
    return "reading the recording in chunks every "
        + Durations.format(config.chunkPeriod())
        + (version > 0 && version < FIRST_STREAMING_JDK
            ? " (Java " + version + " has no remote streaming)"
            : " (jfr.feed: chunks)");
  }

  /** Whether the target may have the FlightRecorder MBean (true when it cannot be asked). */
  private boolean flightRecorderMaybePresent() {
    try {
      return new TargetFlightRecorder(mbeans).present();
    } catch (IOException e) {
      return true;
    }
  }

  private void unavailable(String reason) {
    if (!reason.equals(published.unavailableReason())) {
      log.info("target {}: {}", target, reason);
    }
    published = new StreamState(false, reason);
  }

  private void stop() {
    TargetRecording closing = recording;
    if (closing != null) {
      recording = null;
      closeQuietly(closing);
      StreamDirectories.deleteRecursively(directory);
      directory = null;
      liveSettings = null;
      resetStackSampling();
      handlers.forEach(JfrEventHandler::streamStopped);
    }
    published = new StreamState(false, published.unavailableReason());
    recordingSize.set(-1);
  }

  private void watchdog() {
    try {
      if (mbeans == null) {
        return;
      }
      // Before the storm guard: the evidence recording keeps what a paused stream captured.
      renewEvidenceLease();
      if (guardAgainstStorm()) {
        return;
      }
      long now = System.currentTimeMillis();
      TargetRecording live = recording;
      if (live == null) {
        if (published.unavailableReason() != null && nextRetry > 0 && now >= nextRetry) {
          start(startsOnRetry);
        }
        return;
      }
      long silentMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastFlushNanos);
      if (silentMillis > config.stallTimeout().toMillis()) {
        log.warn(
            "target {}: JFR stream delivered nothing for {} ms; restarting it",
            target,
            silentMillis);
        stop();
        start(startsAfterStall);
        return;
      }
      sampleStacks(live);
      logDrops();
      renewLease(live);
      if (now >= nextSizeCheck) {
        nextSizeCheck = now + SIZE_CHECK_MILLIS;
        updateRecordingSize(live);
        // Its start failed (a call that timed out on a busy target): tried again.
        startEvidence();
      }
    } catch (RuntimeException e) {
      log.warn("target {}: JFR watchdog failed: {}", target, e.toString(), e);
    }
  }

  /**
   * Reads the started-thread count the load policy needs and pauses or resumes the stream as it
   * says; true while the stream is paused (the watchdog then leaves it closed).
   */
  private boolean guardAgainstStorm() {
    boolean streaming = recording != null;
    StreamLoadPolicy.StartsFrom source = load.startsFrom(streaming);
    long started = -1;
    if (source == StreamLoadPolicy.StartsFrom.STREAM) {
      started = loadCounter.totalEvents();
    } else if (source == StreamLoadPolicy.StartsFrom.TARGET) {
      try {
        started =
            ((Number) mbeans.getAttribute(ObjectNames.THREADING, "TotalStartedThreadCount"))
                .longValue();
      } catch (IOException | JMException | RuntimeException e) {
        // The JMX session notices a broken connection on its own; the next tick tries again.
        return load.stormPaused();
      }
      if (!streaming) {
        startedThreads.set(started);
      }
    }
    switch (load.storm(Instant.now(), source, started, streaming)) {
      case PAUSE -> pauseForStorm();
      case RESUME -> resumeAfterStorm(startsAfterStorm, "the storm is over");
      case PROBE ->
          resumeAfterStorm(
              startsForProbe,
              "the storm goes on; capturing it again for "
                  + Durations.format(config.stormPauseCapture()));
      case NONE -> {
        // Nothing changes.
      }
    }
    return load.stormPaused();
  }

  private void pauseForStorm() {
    stop();
    stormPausedGauge.set(1);
    nextRetry = 0;
    published =
        published.withReason(
            String.format(
                Locale.ROOT,
                "paused during a thread storm of %.0f starts/s (above jfr.stormPauseAboveRate %.0f):"
                    + " a running recording would cost the target much of its CPU; JMX metrics"
                    + " continue",
                load.stormRate(),
                config.stormPauseAboveRate()));
    log.warn(
        "target {}: JFR stream {}; it reopens once the rate stays under {}/s for {}, and for {}"
            + " every {} while the storm lasts",
        target,
        published.unavailableReason(),
        Math.round(config.stormPauseAboveRate() / 2),
        Durations.format(config.stormPauseCapture()),
        Durations.format(config.stormPauseCapture()),
        Durations.format(config.stormPauseProbeEvery()));
  }

  private void resumeAfterStorm(Counter cause, String why) {
    stormPausedGauge.set(0);
    published = published.withReason(null);
    log.info(
        "target {}: reopening the JFR stream: {} ({} starts/s)",
        target,
        why,
        Math.round(load.stormRate()));
    start(cause);
  }

  private void resetLoad() {
    load.reset();
    stormPausedGauge.set(0);
    startedThreads.set(-1);
  }

  /**
   * Switches the sampled events' stack traces on the live stream when the sampling plan says so.
   */
  private void sampleStacks(TargetRecording live) {
    if (loadCounter == null || !sampledStacks.anyIn(liveSettings)) {
      return;
    }
    Optional<Boolean> change = load.stacks(Instant.now(), loadCounter.totalEvents());
    boolean sampling = load.sampling();
    if (sampling != (stacksSampledGauge.get() == 1)) {
      log.info(
          "target {}: {} stack traces {}",
          target,
          String.join(", ", sampledStacks.eventNames()),
          sampling
              ? "now recorded only in sampling windows (start rate above "
                  + config.stackSamplingAboveRate()
                  + "/s)"
              : "recorded on every event again");
    }
    stacksSampledGauge.set(sampling ? 1 : 0);
    sampledStacks.sampling(sampling);
    if (change.isPresent()) {
      Map<String, String> changed = sampledStacks.with(liveSettings, change.get());
      // One remote call; a failure closes the stream, which the watchdog then restarts.
      live.feed().setSettings(changed);
      liveSettings = changed;
    }
  }

  private void resetStackSampling() {
    load.streamStarted();
    sampledStacks.sampling(false);
    stacksSampledGauge.set(0);
  }

  private void logDrops() {
    drops
        .due(Instant.now())
        .ifPresent(
            counts ->
                log.warn(
                    "target {}: overloaded: {} events arrived more than {} late and were only"
                        + " counted since the last report (jvm_sentinel_jfr_events_dropped_total;"
                        + " reported at most once a minute): {}",
                    target,
                    counts.values().stream().mapToLong(Long::longValue).sum(),
                    Durations.format(config.maxLag()),
                    counts));
  }

  private void renewLease(TargetRecording live) {
    try {
      live.renewLeaseIfDue(System.nanoTime());
    } catch (RuntimeException e) {
      // Retried next second; the lease outlasts minutes of failures, and the JMX session notices
      // a broken connection on its own.
      log.debug("target {}: renewing the JFR recording's lease failed: {}", target, e.toString());
    }
  }

  private void updateRecordingSize(TargetRecording live) {
    try {
      live.size().ifPresent(recordingSize::set);
      // A daemon that died since leaves a recording that stops with its lease: closed here.
      closeLeftovers(liveIds());
    } catch (IOException | JMException | RuntimeException e) {
      // The JMX session notices a broken connection on its own.
      log.debug("target {}: reading the target's JFR recordings failed: {}", target, e.toString());
    }
  }

  /** Closes what {@link RecordingOwner#mayClose} allows, e.g. after a kill -9 of a daemon. */
  private void closeLeftovers(Set<Long> live) throws IOException, JMException {
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

  static Map<String, String> settings(List<JfrEventHandler> active) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (JfrEventHandler handler : active) {
      settings.putAll(handler.settings().toJfrSettings(handler.eventName()));
    }
    return settings;
  }

  private void closeQuietly(TargetRecording closing) {
    try {
      closing.close();
    } catch (RuntimeException e) {
      log.debug("target {}: closing the JFR stream failed: {}", target, e.toString());
    }
  }

  /** What became of an alert's snapshot of this target, for {@code jvm_sentinel_jfr_evidence_*}. */
  public enum SnapshotOutcome {
    WRITTEN,
    EMPTY,
    FAILED;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Counts an alert's snapshot of this target by what became of it. */
  public void countSnapshot(SnapshotOutcome outcome) {
    snapshotOutcomes.get(outcome).increment();
  }

  /**
   * Why no snapshot of this target can be read (no JFR recording of it, nor one starting), or empty
   * when one can: a read waits for a recording that is starting ({@link #readEvidence}).
   */
  public Optional<String> evidenceUnavailable() {
    if (evidence != null || recording != null) {
      return Optional.empty();
    }
    if (mbeans == null) {
      return Optional.of("the target is not connected");
    }
    boolean starting =
        config.enabled() && !evidenceWindow.isZero() && published.unavailableReason() == null;
    return starting ? Optional.empty() : Optional.of(published.describe());
  }

  /**
   * Starts writing what the target recorded from {@code from} to {@code to} to {@code file}, only
   * the daemon's own events ({@link EvidenceEventFilter}), on this target's dump thread ({@link
   * EvidenceDumps}); empty when the dump queue is full. The read waits for an evidence recording
   * that is starting ({@link #EVIDENCE_START_WAIT}), and until {@code to}, or {@link
   * #EVIDENCE_MIN_RECORDED} after the recording started when that is later: an alert that fires as
   * the daemon connects (a code cache already full) gets the periodic events that show its state,
   * not the fraction of a second recorded before it. Read from the evidence recording ({@link
   * EvidenceRecording}), else from a snapshot of the target's running recordings, and once again
   * after a failure (a call that timed out on a busy target); the future fails with the reason when
   * neither can be read.
   */
  public Optional<CompletableFuture<RecordedEvidence>> readEvidence(
      Instant from, Instant to, Path file) {
    return dumps.submit(file, () -> writeEvidence(from, to, file));
  }

  private RecordedEvidence writeEvidence(Instant from, Instant to, Path file) throws IOException {
    Path raw = file.resolveSibling(file.getFileName() + ".raw");
    try {
      for (long waited = 0;
          evidence == null && mbeans != null && waited < EVIDENCE_START_WAIT.toMillis();
          waited += 250) {
        pause(Duration.ofMillis(250));
      }
      EvidenceRecording kept = evidence;
      if (kept != null && kept.started().plus(EVIDENCE_MIN_RECORDED).isAfter(to)) {
        to = kept.started().plus(EVIDENCE_MIN_RECORDED);
      }
      pause(Duration.between(Instant.now(), to));
      RawRead read;
      try {
        read = readRaw(from, to, raw);
      } catch (IOException e) {
        if (mbeans == null) {
          throw e;
        }
        log.debug("target {}: reading evidence failed, once more: {}", target, e.toString());
        pause(EVIDENCE_RETRY);
        read = readRaw(from, to, raw);
      }
      EvidenceEventFilter.Result filtered = EvidenceEventFilter.filter(raw, file, evidenceEvents);
      return new RecordedEvidence(
          file,
          read.recordedFrom(),
          to,
          read.source(),
          filtered.keptEvents(),
          filtered.droppedEvents());
    } catch (IllegalArgumentException e) {
      throw new IOException("the target's JFR data is malformed: " + e.getMessage(), e);
    } finally {
      Files.deleteIfExists(raw);
    }
  }

  private record RawRead(Instant recordedFrom, String source) {}

  private static void pause(Duration duration) throws IOException {
    if (duration.isNegative() || duration.isZero()) {
      return;
    }
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: the daemon is stopping", e);
    }
  }

  private RawRead readRaw(Instant from, Instant to, Path raw) throws IOException {
    MBeanServerConnection connection = mbeans;
    if (connection == null) {
      throw new IOException("the target is not connected");
    }
    long maxBytes = config.maxSizeMb() * 1024 * 1024;
    EvidenceRecording kept = evidence;
    String failure = "there is no evidence recording (" + published.describe() + ")";
    if (kept != null) {
      try (OutputStream out = Files.newOutputStream(raw)) {
        kept.read(from, to, out, maxBytes);
        return new RawRead(kept.started(), "the daemon's evidence recording");
      } catch (IOException | RuntimeException e) {
        failure = "reading the evidence recording failed: " + ConnectFailure.describe(e);
      }
    }
    // What the target's running recordings hold: after a failed start of the evidence recording,
    // or if someone closed it.
    try (OutputStream out = Files.newOutputStream(raw)) {
      TargetFlightRecorder recorder = new TargetFlightRecorder(connection);
      long snapshot = recorder.takeSnapshot();
      Instant started =
          Instant.ofEpochMilli(
              recorder
                  .find(snapshot)
                  .map(TargetFlightRecorder.Recording::startTimeMillis)
                  .orElse(0L));
      recorder.readCopy(snapshot, owner.readCopyName(target), from, to, 1 << 20, out, maxBytes);
      return new RawRead(started, "a snapshot of the target's recordings (" + failure + ")");
    } catch (IOException | JMException | RuntimeException e) {
      throw new IOException(
          failure
              + "; a snapshot of the target's recordings failed too: "
              + ConnectFailure.describe(e),
          e);
    }
  }

  /** Starts the evidence recording when snapshots are on and none runs; a failure is logged. */
  private void startEvidence() {
    if (evidenceWindow.isZero() || evidence != null) {
      return;
    }
    try {
      evidence =
          EvidenceRecording.start(
              mbeans,
              owner.evidenceRecordingName(target),
              owner.readCopyName(target),
              evidenceWindow.plus(EVIDENCE_MARGIN),
              config.maxSizeMb() * 1024 * 1024,
              TargetRecording.Lease.DEFAULT);
    } catch (IOException | JMException | RuntimeException e) {
      log.warn(
          "target {}: cannot start the JFR evidence recording (snapshots then read the target's"
              + " other recordings): {}",
          target,
          ConnectFailure.describe(e));
    }
  }

  private void renewEvidenceLease() {
    EvidenceRecording kept = evidence;
    if (kept == null) {
      return;
    }
    try {
      kept.renewLeaseIfDue(System.nanoTime());
    } catch (RuntimeException e) {
      log.debug("target {}: renewing the evidence recording's lease failed: {}", target, e);
    }
  }

  private void closeEvidence() {
    EvidenceRecording kept = evidence;
    evidence = null;
    if (kept == null) {
      return;
    }
    try {
      kept.close();
    } catch (IOException | RuntimeException e) {
      // Gone with the connection; its lease stops it, a later connect closes it.
      log.debug("target {}: closing the evidence recording failed: {}", target, e.toString());
    }
  }

  /** The daemon's recordings on the target now, which leftover cleaning must not close. */
  private Set<Long> liveIds() {
    Set<Long> live = new HashSet<>();
    TargetRecording feed = recording;
    EvidenceRecording kept = evidence;
    if (feed != null) {
      live.add(feed.id());
    }
    if (kept != null) {
      live.add(kept.id());
    }
    return live;
  }

  /** The event names of a settings map ({@code jdk.ThreadStart#enabled} and the like). */
  static Set<String> eventNames(Map<String, String> settings) {
    Set<String> names = new HashSet<>();
    settings.keySet().forEach(key -> names.add(key.substring(0, Math.max(0, key.indexOf('#')))));
    names.remove("");
    return Set.copyOf(names);
  }

  @Override
  public void close() {
    dumps.close();
    try {
      thread
          .submit(
              () -> {
                stop();
                closeEvidence();
              })
          .get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.debug("target {}: JFR stream did not close cleanly: {}", target, e.toString());
    }
    thread.shutdownNow();
  }
}
