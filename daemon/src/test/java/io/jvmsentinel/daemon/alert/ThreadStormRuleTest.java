package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.jfr.threads.SiteStarts;
import io.jvmsentinel.daemon.alert.rules.ThreadStormRule;
import io.jvmsentinel.daemon.watch.WatchedTarget;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ThreadStorm on synthetic signal windows (sampled every 2 s, as the engine samples). */
class ThreadStormRuleTest {
  private static final String TLS = "sun.security.ssl.TransportContext.finishHandshake";
  private static final String ACCEPT_LOOP =
      "sun.rmi.transport.tcp.TCPTransport$AcceptLoop.executeAcceptLoop";
  private final ThreadStormRule rule = new ThreadStormRule();
  @TempDir Path tmp;
  private WatchedTarget target;

  @BeforeEach
  void target() {
    target = UnstartedTarget.create("orders", new SimpleMeterRegistry(), tmp);
  }

  @AfterEach
  void close() {
    target.close();
  }

  @Test
  void aSustainedRateAboveTheFloorIsAStorm() {
    SignalHistory history =
        Samples.history(20, (s, t) -> s.threadStarts(100.0 * t).shortLived(95.0 * t));

    List<Finding> findings = rule.evaluate(context(history, Set.of(), false));

    assertThat(findings)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).isEqualTo("Thread storm on orders: 100 thread starts/s");
              assertThat(f.evidence())
                  .containsEntry("startsPerSecond", 100.0)
                  .containsEntry("shortLivedShare", 0.95);
              assertThat(f.evidence()).containsEntry("source", "JFR jdk.ThreadStart");
            });
  }

  @Test
  void aOneOffBurstOfAPoolAtStartIsNotAStorm() {
    // 200 threads within 2 s (a pool started once), then nothing.
    SignalHistory history = Samples.history(20, (s, t) -> s.threadStarts(t >= 14 ? 200 : 0));

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void twoOneOffBurstsFromDifferentCreatorsBackToBackAreNotAStorm() {
    // A batch job's 180 threads over 6 s, then a pool of 200 started at once right after it
    // (sequences: storm-then-bursts): together they fill both halves of the window, but the only
    // creator that starts threads in both halves is the batch, far below the floor.
    String batch = "com.example.Batch.runBatch";
    String pool = "com.example.Pool.startPool";
    SignalHistory history =
        Samples.history(
            596,
            (s, t) -> {
              double batchStarts = 60.0 * Math.max(0, Math.min(t, 594) - 588) / 2;
              s.threadStarts(2.0 * t + batchStarts + (t >= 596 ? 200 : 0));
              if (t >= 590 && t <= 594) {
                s.creators(Samples.site(batch, 60, "batch-#"));
              } else if (t == 596) {
                s.creators(Samples.site(pool, 200, "pool-#"));
              }
            });

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void withoutJfrABatchJobThenAPoolStartedAtOnceAreNotAStorm() {
    // The same pair on a target without JFR, read every second: the batch's threads end before a
    // read sees most of them, the pool's 200 are all seen alive, of one kind, in the newer half.
    SignalHistory history =
        jmxHistory(
            596,
            t -> {
              double batchStarts = 60.0 * Math.max(0, Math.min(t, 594) - 588);
              return 2.0 * t + batchStarts + (t >= 596 ? 200 : 0);
            },
            t ->
                t >= 590 && t <= 594
                    ? Map.of("batch-worker-#", 10L)
                    : t == 596 ? Map.of("pool-#-thread-#", 200L) : Map.of());

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void withoutJfrAStormOfThreadsThatEndUnseenIsAStormBesideAPoolStart() {
    // 100/s of threads that end before any read, and a pool of 200 seen alive in the last second.
    SignalHistory history =
        jmxHistory(
            600,
            t -> 2.0 * t + 98.0 * Math.max(0, t - 580) + (t >= 600 ? 200 : 0),
            t -> t == 600 ? Map.of("pool-#-thread-#", 200L) : Map.of());

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.evidence())
                    .as("what JMX saw of the storm's threads, busiest kind first")
                    .containsEntry(
                        "threadKinds",
                        List.of("(ended before a read saw them) x2000", "pool-#-thread-# x200")));
  }

  @Test
  void withoutJfrAStormOfThreadsThatStayAliveIsAStorm() {
    // 80 threads/s that never end (a leak): every one seen alive, of one kind, in both halves.
    SignalHistory history =
        jmxHistory(
            600,
            t -> 2.0 * t + 78.0 * Math.max(0, t - 580),
            t -> t > 580 ? Map.of("leaked-#", 78L) : Map.of());

    assertThat(rule.evaluate(context(history, Set.of(), false))).hasSize(1);
  }

  @Test
  void aStormFromOneCreatorBesideAOneOffPoolStartIsAStorm() {
    // 100/s from one creator for 20 s, and a pool of 200 started in the last tick.
    String dispatcher = "com.example.Dispatcher.dispatch";
    SignalHistory history =
        Samples.history(
            600,
            (s, t) -> {
              s.threadStarts(2.0 * t + 98.0 * Math.max(0, t - 580) + (t >= 600 ? 200 : 0));
              if (t > 580) {
                s.creators(
                    t == 600
                        ? new SiteStarts[] {
                          Samples.site(dispatcher, 200, "request-#"),
                          Samples.site("com.example.Pool.startPool", 200, "pool-#")
                        }
                        : new SiteStarts[] {Samples.site(dispatcher, 200, "request-#")});
              }
            });

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(f -> assertThat(f.summary()).contains(dispatcher));
  }

  @Test
  void aRateBelowTheFloorIsNotAStorm() {
    SignalHistory history = Samples.history(20, (s, t) -> s.threadStarts(40.0 * t));

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void aRateThatIsNormalForThisTargetIsNotAStorm() {
    // 60/s for ten minutes is this target's normal; 150/s is less than 5x that.
    SignalHistory history =
        Samples.history(
            620, (s, t) -> s.threadStarts(t <= 600 ? 60.0 * t : 36_000 + 150.0 * (t - 600)));

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void aStormThatEndedMinutesAgoDoesNotRaiseTheBarForTheNextOne() {
    // 2/s for eleven minutes, a 200/s storm for a minute at minute 5 (resolved since), and the
    // same code storming again at 100/s for the last 20 s: the baseline's 9 minutes hold the first
    // storm, which is not this target's normal (sequences: storm-flaps-then-recurs).
    SignalHistory history =
        Samples.history(
            660,
            (s, t) ->
                s.threadStarts(
                    2.0 * t
                        + 198.0 * Math.max(0, Math.min(t, 360) - 300)
                        + 98.0 * Math.max(0, t - 640)));

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(f -> assertThat(f.evidence()).containsEntry("baselinePerSecond", 2.0));
  }

  @Test
  void aTargetWhoseUsualMinuteHoldsBurstsKeepsThemInItsBaseline() {
    // 60/s in bursts every minute for ten minutes is this target's normal; 150/s is less than 5x.
    SignalHistory history =
        Samples.history(
            620,
            (s, t) ->
                s.threadStarts(
                    t <= 600
                        ? 3_600.0 * (t / 60) + (t % 60 >= 30 ? 3_600 : 0)
                        : 36_000 + 150.0 * (t - 600)));

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void aFiringStormResolvesOnlyWellBelowTheLimit() {
    SignalHistory hovering = Samples.history(20, (s, t) -> s.threadStarts(30.0 * t));
    SignalHistory calm = Samples.history(20, (s, t) -> s.threadStarts(20.0 * t));

    assertThat(rule.evaluate(context(hovering, Set.of(""), false))).hasSize(1);
    assertThat(rule.evaluate(context(hovering, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(calm, Set.of(""), false))).isEmpty();
  }

  @Test
  void aLongStormDoesNotBecomeItsOwnBaselineWhileFiring() {
    // 120/s for twelve minutes: the baseline window is all storm by now.
    SignalHistory history = Samples.history(720, (s, t) -> s.threadStarts(120.0 * t));

    assertThat(rule.evaluate(context(history, Set.of(""), false))).hasSize(1);
  }

  @Test
  void withoutJfrTheStormIsStillSeenButItsCreatorIsUnknown() {
    SignalHistory history = Samples.history(20, (s, t) -> s.jmxOnly().threadStarts(100.0 * t));

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.explanation()).contains("no JFR stream");
              assertThat(f.evidence()).containsEntry("source", "JMX TotalStartedThreadCount");
            });
  }

  @Test
  void aStormThatPausedTheStreamStaysFiringOnTheJmxCountAndKeepsItsJfrEvidence() {
    // JFR counts for 20 s, then the stream pauses and the JMX count (another counter) takes over.
    SignalHistory history =
        Samples.history(
            40,
            (s, t) -> {
              if (t < 20) {
                s.threadStarts(5000.0 * t);
              } else {
                s.stormPaused().threadStarts(1_000_000 + 5000.0 * t);
              }
            });

    assertThat(rule.evaluate(context(history, Set.of(""), false)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence()).containsEntry("startsPerSecond", 5000.0);
              assertThat((String) f.evidence().get("source"))
                  .startsWith("JMX TotalStartedThreadCount; creator sites from JFR");
              assertThat(f.explanation()).doesNotContain("no JFR stream");
              assertThat(f.evidence()).containsKey("topCreatorSites");
            });
  }

  @Test
  void aDownTargetHasNoStorm() {
    SignalHistory history = Samples.history(20, (s, t) -> s.threadStarts(100.0 * t).down(3));

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void theSecondStormOfASequenceNamesItsOwnCreator() {
    String logger = "com.example.AsyncLogger.log";
    String tls = "sun.security.ssl.TransportContext.finishHandshake";
    // 40 s of a logger starting 200 threads/s, a quiet minute, then 10 s of the TLS listener.
    SignalHistory history =
        Samples.history(
            110,
            (s, t) -> {
              double started = 200.0 * Math.min(t, 40) + (t > 100 ? 100.0 * (t - 100) : 0);
              s.threadStarts(started);
              if (t > 0 && t <= 40) {
                s.creators(Samples.site(logger, 400, "log-writer-#"));
              } else if (t > 100) {
                s.creators(Samples.site(tls, 200, "HandshakeCompletedNotify-Thread"));
              }
            });

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary())
                  .contains("100% from " + tls)
                  .contains("JDK-8246039")
                  .doesNotContain(logger);
              assertThat(f.evidence()).containsEntry("knownCause", "JDK-8246039");
              // Short forms (Slack) show the first lines: the creators and the cause lead.
              assertThat(f.evidence().keySet())
                  .startsWith("topCreatorSites", "knownCause", "startsPerSecond");
            });
  }

  @Test
  void aKnownCauseFiresFarBelowTheGenericFloor() {
    String tls = "sun.security.ssl.TransportContext.finishHandshake";
    SignalHistory knownCause =
        Samples.history(
            20,
            (s, t) ->
                s.threadStarts(30.0 * t)
                    .creators(Samples.site(tls, 60, "HandshakeCompletedNotify-Thread")));
    SignalHistory unknownCause =
        Samples.history(
            20,
            (s, t) ->
                s.threadStarts(30.0 * t)
                    .creators(Samples.site("com.example.Worker.spawn", 60, "worker-#")));
    SignalHistory tooSlow =
        Samples.history(
            20,
            (s, t) ->
                s.threadStarts(2.0 * t)
                    .creators(Samples.site(tls, 4, "HandshakeCompletedNotify-Thread")));

    assertThat(rule.evaluate(context(knownCause, Set.of(), false)))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.summary())
                    .isEqualTo(
                        "Thread storm on orders: 30.0 thread starts/s, 100% from "
                            + tls
                            + " (TLS handshake listener thread per connection (JDK-8246039))"));
    assertThat(rule.evaluate(context(unknownCause, Set.of(), false))).isEmpty();
    assertThat(rule.evaluate(context(tooSlow, Set.of(), false))).isEmpty();
  }

  @Test
  void theMonitoringsOwnStartsAreNeverTheCauseEvenWhenTheyAreTheBusiestSite() {
    String dispatch = "com.example.Dispatcher.dispatch";
    // 100 starts/s: 60 the daemon's own RMI connections (a reconnect loop, say), 40 of the
    // application's dispatcher.
    SignalHistory history = withOwnStarts(100, 60, dispatch, "request-#");

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(
            f -> {
              // The rate is every start; the cause and its share are the application's.
              assertThat(f.summary())
                  .isEqualTo("Thread storm on orders: 100 thread starts/s, 100% from " + dispatch);
              assertThat(f.explanation()).contains("the busiest creator is " + dispatch);
              assertThat(f.evidence()).containsEntry("ownStarts", 1320L);
              @SuppressWarnings("unchecked")
              List<Map<String, Object>> sites =
                  (List<Map<String, Object>>) f.evidence().get("topCreatorSites");
              assertThat(sites)
                  .singleElement()
                  .satisfies(
                      site ->
                          assertThat(site)
                              .containsEntry("site", dispatch)
                              .containsEntry("share", 1.0));
            });
  }

  @Test
  void aKnownCauseIsMatchedAmongTheApplicationsStartsOnly() {
    // 30 starts/s, below the generic floor: 18 of them the monitoring's own, 12 of the TLS
    // listener (JDK-8246039). Counted with the own starts the cause has 40%, not most.
    SignalHistory history = withOwnStarts(30, 18, TLS, "HandshakeCompletedNotify-Thread");

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).contains("100% from " + TLS).contains("JDK-8246039");
              assertThat(f.evidence()).containsEntry("knownCause", "JDK-8246039");
            });
  }

  @Test
  void theMonitoringsOwnStartsDoNotLiftAKnownCauseOverItsFloor() {
    // 6 starts/s in all, above the known cause's floor of 5; the application's TLS listener
    // starts 4 of them.
    SignalHistory history = withOwnStarts(6, 2, TLS, "HandshakeCompletedNotify-Thread");

    assertThat(rule.evaluate(context(history, Set.of(), false))).isEmpty();
  }

  @Test
  void aStormOfTheMonitoringsOwnStartsNamesNoCreatorAndSaysWhose() {
    SignalHistory history = withOwnStarts(100, 100, null, null);

    assertThat(rule.evaluate(context(history, Set.of(), false)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.summary()).isEqualTo("Thread storm on orders: 100 thread starts/s");
              assertThat(f.explanation()).contains("all the monitoring's own");
              assertThat(f.evidence()).doesNotContainKey("knownCause");
              assertThat((List<?>) f.evidence().get("topCreatorSites")).isEmpty();
            });
  }

  @Test
  void aJmxOnlyStormSaysWhyItsCreatorIsUnknownWithTheTargetsOwnJfrState() {
    String noMBean = "the target has no FlightRecorder MBean, so only JMX metrics are collected";

    assertThat(jmxOnlyStorm(noMBean).explanation())
        .isEqualTo(
            "The target starts 100 threads/s. Its creator sites are unknown: the daemon has no"
                + " JFR stream of the target ("
                + noMBean
                + "), so only the JMX started-thread count is seen.");
    assertThat(jmxOnlyStorm("disabled by configuration (jfr.enabled: false)").explanation())
        .contains("(disabled by configuration (jfr.enabled: false))")
        .doesNotContain("JDK 15");
    assertThat(jmxOnlyStorm("not started").explanation()).contains("(the JFR stream is starting)");
    // A recording made before the state was sampled: no reason is invented.
    assertThat(jmxOnlyStorm(null).explanation()).contains("(why was not recorded)");
    assertThat(jmxOnlyStorm(noMBean).action())
        .contains("'jfr' in /api/v1/targets")
        .doesNotContain("JDK 16");
  }

  private Finding jmxOnlyStorm(String jfrState) {
    SignalSample.Target target =
        new SignalSample.Target(
            "127.0.0.1:9010", Samples.T0, null, 1, "11.0.13", Map.of(), jfrState, null);
    SignalHistory history =
        Samples.history(20, (s, t) -> s.jmxOnly().threadStarts(100.0 * t).target(target));
    List<Finding> findings = rule.evaluate(context(history, Set.of(), false));
    assertThat(findings).hasSize(1);
    return findings.get(0);
  }

  @Test
  void aJmxCountReadEverySecondShowsAStormThatACountPolledEveryTenSecondsCannot() {
    // 150 threads/s, sampled every second; the count read every 1 s, or every 10 s.
    for (int end = 20; end <= 60; end++) {
      assertThat(rule.evaluate(context(jmxHistory(end, 1), Set.of(), false)))
          .as("read every second, at %d s", end)
          .hasSize(1);
      // Whatever second the rule runs at, the two halves of its 5 s window never both see a step.
      assertThat(rule.evaluate(context(jmxHistory(end, 10), Set.of(), false)))
          .as("read every 10 s, at %d s", end)
          .isEmpty();
    }
  }

  /**
   * A target without JFR read every second for {@code seconds}: its started count and the threads
   * first seen alive, by name pattern, at each second.
   */
  private static SignalHistory jmxHistory(
      int seconds,
      java.util.function.IntToDoubleFunction started,
      java.util.function.IntFunction<Map<String, Long>> seenAlive) {
    SignalHistory history = new SignalHistory(Duration.ofMinutes(15));
    for (int t = 0; t <= seconds; t++) {
      history.add(
          new Samples()
              .at(Samples.T0.plusSeconds(t))
              .jmxOnly()
              .threadStarts(started.applyAsDouble(t))
              .newThreads(seenAlive.apply(t))
              .build());
    }
    return history;
  }

  /** A JMX-only target starting 150 threads/s, sampled every second, its count read every n s. */
  private static SignalHistory jmxHistory(int seconds, int readEvery) {
    SignalHistory history = new SignalHistory(Duration.ofMinutes(15));
    for (int t = 0; t <= seconds; t++) {
      int read = t - t % readEvery;
      history.add(
          new Samples().at(Samples.T0.plusSeconds(t)).jmxOnly().threadStarts(150.0 * read).build());
    }
    return history;
  }

  /**
   * 20 s of {@code perSecond} thread starts: {@code ownPerSecond} of them the daemon's own RMI
   * connections, the rest (if any) from the application's {@code site}.
   */
  private static SignalHistory withOwnStarts(
      double perSecond, double ownPerSecond, String site, String threadName) {
    // Samples are 2 s apart: each tick's table holds two seconds of starts.
    long own = Math.round(2 * ownPerSecond);
    long application = Math.round(2 * (perSecond - ownPerSecond));
    SiteStarts ownSite = Samples.site(ACCEPT_LOOP, true, own, "RMI TCP Connection(idle)");
    return Samples.history(
        20,
        (s, t) -> {
          s.threadStarts(perSecond * t).ownThreadStarts(ownPerSecond * t);
          if (application > 0) {
            s.creators(ownSite, Samples.site(site, application, threadName));
          } else {
            s.creators(ownSite);
          }
        });
  }

  private RuleContext context(SignalHistory history, Set<String> firing, boolean warming) {
    return new RuleContext(
        "orders",
        history,
        RuleSettings.DEFAULTS.thresholds(rule, "orders"),
        firing,
        warming ? WarmUp.Phase.STARTING : WarmUp.Phase.OVER,
        history.latest().orElseThrow().at());
  }
}
