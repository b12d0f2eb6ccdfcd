package io.jvmsentinel.daemon.web;

import io.jvmsentinel.daemon.alert.ActiveAlert;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.RuleSettings;
import io.jvmsentinel.daemon.alert.rules.ThreadStormRule;
import io.jvmsentinel.daemon.detection.DetectionEngine;
import io.jvmsentinel.daemon.http.HttpEndpoint;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The status page's routes, for the daemon's HTTP endpoint (same listener, TLS and credential as
 * the API): the page, its bundled assets, recent alerts and the alerts' JFR snapshots. The page's
 * data comes from the JSON API (targets, alerts, and per target its series, flame graph and TLS
 * reports).
 */
public final class StatusPage {
  private StatusPage() {}

  /**
   * @param recent the recent notifications (the listener the detection engine notifies)
   * @param snapshotDirectory where alert snapshots are saved, if anywhere
   */
  public static Map<String, HttpEndpoint.Route> routes(
      DetectionEngine detection, RecentAlerts recent, Optional<Path> snapshotDirectory) {
    StatusPageRoute page = new StatusPageRoute();
    return Map.of(
        "/",
        page,
        StatusPageRoute.TARGETS_PREFIX,
        page,
        PageAssets.PREFIX,
        new PageAssets(),
        RecentAlerts.PATH,
        recent,
        SnapshotDownloads.PREFIX,
        new SnapshotDownloads(snapshotDirectory, () -> namedSnapshots(detection, recent)));
  }

  /** The ThreadStorm threshold the page draws on a target's start rate chart. */
  public static double stormThreshold(RuleSettings settings, String target) {
    ThreadStormRule rule = new ThreadStormRule();
    return settings.thresholds(rule, target).get(ThreadStormRule.MIN_RATE);
  }

  private static Set<String> namedSnapshots(DetectionEngine detection, RecentAlerts recent) {
    Set<String> named = new HashSet<>();
    detection.active().stream()
        .map(ActiveAlert::snapshot)
        .filter(Objects::nonNull)
        .forEach(named::add);
    recent.all().stream()
        .map(AlertNotification::snapshot)
        .flatMap(Optional::stream)
        .forEach(named::add);
    return named;
  }
}
