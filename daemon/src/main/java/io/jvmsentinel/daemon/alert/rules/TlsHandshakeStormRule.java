package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import io.jvmsentinel.daemon.alert.Finding;
import io.jvmsentinel.daemon.alert.RuleContext;
import io.jvmsentinel.daemon.alert.RuleInput;
import io.jvmsentinel.daemon.alert.RuleInput.Signal;
import io.jvmsentinel.daemon.alert.RuleThreshold;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SubWindows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The target re-handshakes with one peer over and over, and mostly in full (a certificate chain
 * validated each time): connections are not kept alive and sessions are not resumed (seed incidents
 * 2 and 3), through most of the window: a pool that reconnects once (its peer restarted, no session
 * left to resume) fills one or two of its sub-windows with full handshakes and may average over the
 * threshold, but it is a wave that resumes again, not a client that keeps re-handshaking. A firing
 * peer is judged on the latest sixth of the window, at half the thresholds, so the alert resolves
 * once the handshakes stop rather than once they have averaged out of it.
 */
public final class TlsHandshakeStormRule implements AlertRule {
  static final String RATE = "minRate";
  static final String FULL_SHARE = "minFullShare";
  static final String WINDOW = "windowSeconds";
  // Most sub-windows (4 of 6, 20 s of the 30) at half the thresholds: sustained, not a wave.
  private static final double SUSTAINED_SHARE = 0.6;

  @Override
  public String id() {
    return "TlsHandshakeStorm";
  }

  @Override
  public Severity severity() {
    return Severity.WARNING;
  }

  @Override
  public String description() {
    return "The target re-handshakes TLS with one peer at a high rate, mostly in full.";
  }

  @Override
  public List<RuleThreshold> thresholds() {
    return List.of(
        new RuleThreshold(RATE, 10, "handshakes/s", "Handshakes per second with one peer"),
        new RuleThreshold(
            FULL_SHARE, 0.8, "fraction", "Share of those handshakes that were full (not resumed)"),
        new RuleThreshold(
            WINDOW,
            30,
            "seconds",
            "Window the rate is measured over; most of its sixths (4 of 6) must show half the"
                + " rate and share (a one-off reconnect wave fills one or two), and a firing peer"
                + " is judged on its latest sixth"));
  }

  @Override
  public boolean needsJfr() {
    return true;
  }

  /** Handshakes (JFR) over the window, and in its latest sub-window while firing. */
  @Override
  public List<RuleInput> inputs(Map<String, Double> thresholds) {
    double window = thresholds.get(WINDOW);
    return List.of(Rates.everySubWindow(Signal.TLS_HANDSHAKES, window));
  }

  @Override
  public List<Finding> evaluate(RuleContext context) {
    if (!Rates.up(context)) {
      return List.of();
    }
    Duration window = Rates.seconds(context.threshold(WINDOW));
    SignalSample latest = context.history().latest().orElseThrow();
    List<Finding> findings = new ArrayList<>();
    for (String peer : latest.tlsPeers().keySet()) {
      double rate = context.history().rate(window, s -> handshakes(s, peer), SignalSample::jfr);
      double full = context.history().rate(window, s -> full(s, peer), SignalSample::jfr);
      // Over the window to fire; in the latest sub-window, at half the thresholds, to fire and to
      // stay firing: a storm that stopped neither pages nor stays paged while it averages out.
      boolean now = storming(context, Latest.subWindow(context.history(), window), peer, 0.5);
      boolean storm =
          context.firing(peer)
              || (storming(context, rate, full, 1) && sustained(context, window, peer));
      if (Double.isNaN(rate) || !storm || !now) {
        continue;
      }
      findings.add(finding(context, peer, rate, full / rate));
    }
    return findings;
  }

  /**
   * Full handshakes with the peer in most sub-windows of the window, at half the thresholds, since
   * they last fell under them: a storm that ended and resolved is not paged again on its
   * sub-windows still in the window and a short tail after it (ClassLoaderChurnRule).
   */
  private static boolean sustained(RuleContext context, Duration window, String peer) {
    List<List<SignalSample>> slices = SubWindows.of(context.history(), window, SubWindows.PARTS);
    Predicate<List<SignalSample>> holding = slice -> storming(context, slice, peer, 0.5);
    // Fell under them: a known rate below them (an unknown one, NaN, is no fall).
    Predicate<List<SignalSample>> stopped =
        slice ->
            !Double.isNaN(SubWindows.rate(slice, s -> handshakes(s, peer), SignalSample::jfr))
                && !holding.test(slice);
    return SubWindows.sustainedSince(slices, stopped, holding, SUSTAINED_SHARE);
  }

  private static boolean storming(
      RuleContext context, List<SignalSample> slice, String peer, double relax) {
    return storming(
        context,
        SubWindows.rate(slice, s -> handshakes(s, peer), SignalSample::jfr),
        SubWindows.rate(slice, s -> full(s, peer), SignalSample::jfr),
        relax);
  }

  /**
   * {@code rate} handshakes/s, {@code full} of them full, at the thresholds times {@code relax}.
   */
  private static boolean storming(RuleContext context, double rate, double full, double relax) {
    return rate >= context.threshold(RATE) * relax
        && full / rate >= context.threshold(FULL_SHARE) * relax;
  }

  private Finding finding(RuleContext context, String peer, double rate, double fullShare) {
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("peer", peer);
    evidence.put("handshakesPerSecond", Math.round(rate * 100) / 100.0);
    evidence.put("fullShare", Math.round(fullShare * 1000) / 1000.0);
    SignalSample.TlsPeer details = context.history().latest().orElseThrow().tlsPeers().get(peer);
    if (details != null) {
      evidence.put("protocols", details.protocols());
      evidence.put("ciphers", details.ciphers());
    }
    return new Finding(
        peer,
        "TLS handshake storm on "
            + context.target()
            + ": "
            + Rates.format(rate)
            + " handshakes/s with "
            + peer
            + ", "
            + Rates.percent(fullShare)
            + " full",
        "The target opens a new TLS connection to "
            + peer
            + " about "
            + Rates.format(rate)
            + " times a second and validates the peer's certificate chain each time: sessions"
            + " are not resumed. Each full handshake costs CPU and round trips on both ends.",
        "Keep connections to the peer alive (is it answering 'Connection: close'?), reuse one"
            + " SSLContext, and make sure sockets are closed cleanly so sessions stay resumable"
            + " (a fatal alert on close invalidates the session).",
        evidence);
  }

  private static double handshakes(SignalSample sample, String peer) {
    SignalSample.TlsPeer p = sample.tlsPeers().get(peer);
    return p == null ? Double.NaN : p.handshakes();
  }

  private static double full(SignalSample sample, String peer) {
    SignalSample.TlsPeer p = sample.tlsPeers().get(peer);
    return p == null ? Double.NaN : p.full();
  }
}
