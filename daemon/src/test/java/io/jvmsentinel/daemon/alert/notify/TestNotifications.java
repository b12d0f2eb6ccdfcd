package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.JsonNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Severity;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The notifications every test of this package delivers, and JSON helpers. */
final class TestNotifications {
  static final Instant STARTED = Instant.parse("2024-05-01T10:00:00Z");
  static final Instant RESOLVED_AT = Instant.parse("2024-05-01T10:04:12Z");

  private TestNotifications() {}

  static AlertNotification firing() {
    return firing("ThreadStorm", "orders");
  }

  static AlertNotification firing(String rule, String target) {
    return new AlertNotification(
        rule,
        target,
        "",
        Severity.CRITICAL,
        AlertNotification.Status.FIRING,
        STARTED,
        STARTED,
        "Thread storm on " + target + ": 212 thread starts/s",
        "The TLS handshake listener starts one thread per handshake (JDK-8246039).",
        "Upgrade the JDK or disable the handshake listener.",
        "https://runbooks.example.com/ThreadStorm",
        // Sorted: the order Slack and Datadog texts show, whatever Map.of iterates in this run.
        new java.util.TreeMap<>(
            Map.<String, Object>of(
                "startsPerSecond", 212, "topSite", "SSLSocketImpl.startHandshake")),
        Optional.of("/var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr"));
  }

  /** A firing alert of a discovered target, with its tags (one named like an alert label). */
  static AlertNotification firingWithTargetTags() {
    Map<String, String> tags = new java.util.LinkedHashMap<>();
    tags.put("namespace", "shop");
    tags.put("pod", "orders-7f9c");
    tags.put("severity", "not-the-alert's");
    return firing("ThreadStorm", "shop.orders-7f9c").withTargetTags(tags);
  }

  /** A site as a target may name its code: Slack and DogStatsD syntax, a line break, 4 KB. */
  static final String HOSTILE_SITE =
      "Evil<!channel>|#tag:x,y*bold*<https://phish.example|click>\nforged" + "A".repeat(4_000);

  /**
   * A name as a target may choose it to fake formatting or hide what it is: mrkdwn markers and a
   * backtick that would close a code span, an ANSI colour and a line break, a zero-width space, a
   * right-to-left override, a mention and an ampersand.
   */
  static final String HOSTILE_NAME =
      "Evil`*bold*`_it_~st~\u001b[31mred\u001b[0m\nforged\u200Bzw\u202Eexe.txt<!channel>&";

  /** {@link #HOSTILE_NAME} in every text field a sink shows: target, tags, key, texts, evidence. */
  static AlertNotification firingWithHostileNames() {
    Map<String, Object> evidence = new java.util.LinkedHashMap<>();
    evidence.put("topSite", HOSTILE_NAME);
    evidence.put("startsPerSecond", 212);
    evidence.put("sites", List.of(HOSTILE_NAME, "Worker.spawn"));
    evidence.put(HOSTILE_NAME, "x");
    return new AlertNotification(
            "ThreadStorm",
            "orders-" + HOSTILE_NAME,
            HOSTILE_NAME + ":443",
            Severity.CRITICAL,
            AlertNotification.Status.FIRING,
            STARTED,
            STARTED,
            "Thread storm on orders: 97% from " + HOSTILE_NAME,
            "The busiest creator is " + HOSTILE_NAME + ".",
            "Look at " + HOSTILE_NAME + ".",
            "https://runbooks.example.com/ThreadStorm",
            evidence,
            Optional.empty())
        .withTargetTags(Map.of("pod", HOSTILE_NAME));
  }

  /** A firing alert whose summary, explanation, key and evidence name {@link #HOSTILE_SITE}. */
  static AlertNotification firingFromHostileCode() {
    return new AlertNotification(
        "TlsHandshakeStorm",
        "orders",
        HOSTILE_SITE + ":443",
        Severity.CRITICAL,
        AlertNotification.Status.FIRING,
        STARTED,
        STARTED,
        "Thread storm on orders: 100% from " + HOSTILE_SITE,
        "The busiest creator is " + HOSTILE_SITE + ".",
        "Replace per-task thread creation.",
        "https://runbooks.example.com/ThreadStorm",
        Map.of("topSite", HOSTILE_SITE),
        Optional.empty());
  }

  /** A warning with a key, no runbook, no snapshot and a list in its evidence. */
  static AlertNotification warningWithKey() {
    return new AlertNotification(
        "CodeCacheFull",
        "payments",
        "CodeHeap 'non-profiled nmethods'",
        Severity.WARNING,
        AlertNotification.Status.FIRING,
        STARTED,
        STARTED,
        "Code cache segment 98% full on payments",
        "The JIT will stop compiling.",
        "Raise -XX:ReservedCodeCacheSize.",
        "",
        Map.of("usedPercent", 98.5, "segments", List.of("a", "b")),
        Optional.empty());
  }

  static AlertNotification resolved() {
    return resolved(firing());
  }

  static AlertNotification resolved(AlertNotification f) {
    return new AlertNotification(
        f.ruleId(),
        f.target(),
        f.key(),
        f.severity(),
        AlertNotification.Status.RESOLVED,
        f.startedAt(),
        RESOLVED_AT,
        f.summary(),
        f.explanation(),
        f.action(),
        f.runbook(),
        f.evidence(),
        f.snapshot());
  }

  static final Instant UPDATED_AT = Instant.parse("2024-05-01T10:00:09Z");

  /** {@link #firing()} nine seconds later, now naming its creator site. */
  static AlertNotification updated() {
    AlertNotification f = firing();
    return new AlertNotification(
        f.ruleId(),
        f.target(),
        f.key(),
        f.severity(),
        AlertNotification.Status.UPDATED,
        f.startedAt(),
        UPDATED_AT,
        "Thread storm on orders: 212 thread starts/s, 97% from Worker.spawn",
        "The busiest creator is Worker.spawn.",
        f.action(),
        f.runbook(),
        f.evidence(),
        f.snapshot());
  }

  static JsonNode json(String text) {
    try {
      return NotificationJson.MAPPER.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
