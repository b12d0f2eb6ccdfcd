package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.rules.TlsHandshakeStormRule;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** TlsHandshakeStorm on synthetic windows: a high rate with one peer, mostly full handshakes. */
class TlsHandshakeStormRuleTest {
  private static final String PEER = "payments.internal:443";
  private static final String QUIET_PEER = "auth.internal:443";
  private final TlsHandshakeStormRule rule = new TlsHandshakeStormRule();

  @Test
  void fullHandshakesWithOnePeerAtAHighRateAreAStormOfThatPeer() {
    SignalHistory history =
        Samples.history(
            40,
            (s, t) ->
                s.tls(
                    Map.of(
                        PEER, peer(20.0 * t, 19.0 * t),
                        QUIET_PEER, peer(1.0 * t, 1.0 * t))));

    assertThat(rule.evaluate(context(history, Set.of())))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.key()).isEqualTo(PEER);
              assertThat(f.summary())
                  .startsWith("TLS handshake storm on orders: 20")
                  .contains("handshakes/s with " + PEER);
              assertThat(f.evidence())
                  .containsEntry("peer", PEER)
                  .containsEntry("handshakesPerSecond", 20.0)
                  .containsEntry("fullShare", 0.95)
                  .containsEntry("protocols", Map.of("TLSv1.3", 100L));
            });
  }

  /**
   * A pool of 300 connections to one peer reconnecting once (the peer restarted: no session to
   * resume) averages 10 full handshakes/s over the 30 s window, but in one sub-window only: a wave,
   * not a client that keeps re-handshaking.
   */
  @Test
  void aOneOffReconnectWaveIsNotAStorm() {
    SignalHistory history =
        Samples.history(
            36,
            (s, t) -> {
              double wave = t <= 30 ? 0 : Math.min(300, 75.0 * (t - 30));
              s.tls(Map.of(PEER, peer(wave, wave)));
            });

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  /** The same handshakes coming again and again through most of the window are a storm. */
  @Test
  void fullHandshakesThroughMostOfTheWindowAreAStorm() {
    SignalHistory history =
        Samples.history(
            40,
            (s, t) -> {
              double storm = t <= 18 ? 0 : 15.0 * (t - 18);
              s.tls(Map.of(PEER, peer(storm, storm)));
            });

    assertThat(rule.evaluate(context(history, Set.of()))).hasSize(1);
  }

  @Test
  void resumedHandshakesAreNotAStorm() {
    SignalHistory history =
        Samples.history(40, (s, t) -> s.tls(Map.of(PEER, peer(20.0 * t, 2.0 * t))));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  @Test
  void aLowRateIsNotAStorm() {
    SignalHistory history =
        Samples.history(40, (s, t) -> s.tls(Map.of(PEER, peer(5.0 * t, 5.0 * t))));

    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  @Test
  void aFiringStormResolvesOnlyAtHalfTheRate() {
    SignalHistory hovering =
        Samples.history(40, (s, t) -> s.tls(Map.of(PEER, peer(6.0 * t, 6.0 * t))));

    assertThat(rule.evaluate(context(hovering, Set.of(PEER)))).hasSize(1);
    assertThat(rule.evaluate(context(hovering, Set.of()))).isEmpty();
  }

  @Test
  void aStormThatEndedIsNotPagedAgainOnItsSubWindowsStillInTheWindow() {
    // 20 full handshakes/s for 100 s, quiet, then 4 s of them again at 120 s. With a 60 s window
    // (10 s sub-windows) the page resolved at about 120 s; four of the storm's sub-windows and the
    // latest made a fresh page of 4 s of handshakes.
    SignalHistory tail =
        Samples.history(
            124,
            (s, t) -> {
              double handshakes = 20.0 * Math.min(t, 100) + 20.0 * Math.max(0, t - 120);
              s.tls(Map.of(PEER, peer(handshakes, handshakes)));
            });

    assertThat(rule.evaluate(Samples.context(rule, tail, Set.of(), Map.of("windowSeconds", 60.0))))
        .isEmpty();
    SignalHistory storm =
        Samples.history(124, (s, t) -> s.tls(Map.of(PEER, peer(20.0 * t, 20.0 * t))));
    assertThat(rule.evaluate(Samples.context(rule, storm, Set.of(), Map.of("windowSeconds", 60.0))))
        .as("a storm pages")
        .hasSize(1);
  }

  @Test
  void withoutJfrThereIsNothingToJudge() {
    SignalHistory history =
        Samples.history(40, (s, t) -> s.jmxOnly().tls(Map.of(PEER, peer(20.0 * t, 19.0 * t))));

    assertThat(rule.needsJfr()).isTrue();
    assertThat(rule.evaluate(context(history, Set.of()))).isEmpty();
  }

  private static SignalSample.TlsPeer peer(double handshakes, double full) {
    return new SignalSample.TlsPeer(
        handshakes, full, Map.of("TLSv1.3", 100L), Map.of("TLS_AES_256_GCM_SHA384", 100L));
  }

  private RuleContext context(SignalHistory history, Set<String> firing) {
    return Samples.context(rule, history, firing);
  }
}
