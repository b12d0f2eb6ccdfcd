package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.jfr.handler.LoadCountingHandler;
import io.jvmsentinel.collectors.jmx.ObjectNames;
import io.jvmsentinel.daemon.config.Durations;
import io.jvmsentinel.daemon.config.JfrConfig;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acts on what {@link StreamLoadPolicy} decides once a second: reads the thread start count it
 * needs (the stream's own count, or the target's JMX {@code TotalStartedThreadCount} while the
 * stream is paused), says whether to pause or reopen the stream for a storm, and switches the
 * sampled events' stack traces on the live stream ({@link SampledStacks}). Keeps the storm and
 * sampling gauges. Used from the session thread; {@link #paused} and {@link #startedThreads} from
 * any thread.
 */
final class StreamLoadGuard {
  private static final Logger log = LoggerFactory.getLogger(JfrStreamSession.class);

  private final String target;
  private final JfrConfig config;
  private final Clock clock;
  private final JfrStreamMeters meters;
  private final LoadCountingHandler loadCounter;
  private final SampledStacks sampledStacks;
  private final StreamLoadPolicy load;
  private final AtomicLong startedThreads = new AtomicLong(-1);
  // The live feed's settings, which stack sampling changes; null while no feed runs.
  private Map<String, String> liveSettings;

  StreamLoadGuard(
      String target,
      List<JfrEventHandler> handlers,
      JfrConfig config,
      Clock clock,
      JfrStreamMeters meters) {
    this.target = target;
    this.config = config;
    this.clock = clock;
    this.meters = meters;
    this.loadCounter =
        handlers.stream()
            .filter(LoadCountingHandler.class::isInstance)
            .map(LoadCountingHandler.class::cast)
            .findFirst()
            .orElse(null);
    this.sampledStacks = new SampledStacks(handlers);
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
  }

  /** Whether the stream is closed because of a heavy thread storm. */
  boolean paused() {
    return meters.stormPaused();
  }

  /** The target's started-thread count read in the last second while paused, or -1. */
  long startedThreads() {
    return paused() ? startedThreads.get() : -1;
  }

  /**
   * Reads the start count the policy needs and returns what to do with the stream; NONE also when
   * the target could not be read (the JMX session notices a broken connection on its own).
   */
  StormPause.Action check(MBeanServerConnection mbeans, boolean streaming) {
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
        return StormPause.Action.NONE;
      }
      if (!streaming) {
        startedThreads.set(started);
      }
    }
    return load.storm(clock.instant(), source, started, streaming);
  }

  /** Whether the policy holds the stream closed for a storm now. */
  boolean holdsClosed() {
    return load.stormPaused();
  }

  /** The stream was closed for a storm: logged; returns the reason to publish. */
  String pause() {
    meters.stormPaused(true);
    String reason =
        String.format(
            Locale.ROOT,
            "paused during a thread storm of %.0f starts/s (above jfr.stormPauseAboveRate %.0f):"
                + " a running recording would cost the target much of its CPU; JMX metrics"
                + " continue",
            load.stormRate(),
            config.stormPauseAboveRate());
    log.warn(
        "target {}: JFR stream {}; it reopens once the rate stays under {}/s for {}, and for {}"
            + " every {} while the storm lasts",
        target,
        reason,
        Math.round(config.stormPauseAboveRate() / 2),
        Durations.format(config.stormPauseCapture()),
        Durations.format(config.stormPauseCapture()),
        Durations.format(config.stormPauseProbeEvery()));
    return reason;
  }

  /** The stream reopens after a pause, for {@code action} (RESUME or PROBE); logged. */
  void reopen(StormPause.Action action) {
    meters.stormPaused(false);
    String why =
        action == StormPause.Action.RESUME
            ? "the storm is over"
            : "the storm goes on; capturing it again for "
                + Durations.format(config.stormPauseCapture());
    log.info(
        "target {}: reopening the JFR stream: {} ({} starts/s)",
        target,
        why,
        Math.round(load.stormRate()));
  }

  /** The connection came or went: a new target may answer next, so storm history goes. */
  void reset() {
    load.reset();
    meters.stormPaused(false);
    startedThreads.set(-1);
  }

  /** A feed started with {@code settings}: every stack is recorded again, sampling starts over. */
  void streamStarted(Map<String, String> settings) {
    liveSettings = settings;
    restartSampling();
  }

  /** The feed stopped. */
  void streamStopped() {
    liveSettings = null;
    restartSampling();
  }

  private void restartSampling() {
    load.streamStarted();
    sampledStacks.sampling(false);
    meters.stacksSampled(false);
  }

  /**
   * Switches the sampled events' stack traces on the live {@code feed} when the sampling plan says
   * so: one remote call with the whole settings map, because a recording's {@code setSettings}
   * replaces all of its settings; a failure closes the stream, which the watchdog then restarts.
   */
  void sampleStacks(EventFeed feed) {
    if (loadCounter == null || !sampledStacks.anyIn(liveSettings)) {
      return;
    }
    Optional<Boolean> change = load.stacks(clock.instant(), loadCounter.totalEvents());
    boolean sampling = load.sampling();
    if (sampling != meters.stacksSampled()) {
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
    meters.stacksSampled(sampling);
    sampledStacks.sampling(sampling);
    if (change.isPresent()) {
      Map<String, String> changed = sampledStacks.with(liveSettings, change.get());
      feed.setSettings(changed);
      liveSettings = changed;
    }
  }
}
