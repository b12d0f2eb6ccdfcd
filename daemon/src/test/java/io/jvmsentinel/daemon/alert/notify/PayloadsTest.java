package io.jvmsentinel.daemon.alert.notify;

import static io.jvmsentinel.daemon.alert.notify.TestNotifications.firing;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.json;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.resolved;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.updated;
import static io.jvmsentinel.daemon.alert.notify.TestNotifications.warningWithKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.config.Secret;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Every sink's JSON, exactly, for a firing and a resolved notification. */
class PayloadsTest {
  @Nested
  class JsonLog {
    @Test
    void firingIsOneLineWithEveryField() {
      String line = JsonLogNotifier.line(firing());

      assertThat(line).doesNotContain("\n");
      assertThat(json(line))
          .isEqualTo(
              json(
                  """
                  {"status": "firing", "rule": "ThreadStorm", "target": "orders", "targetTags": {}, "key": "",
                   "severity": "critical",
                   "summary": "Thread storm on orders: 212 thread starts/s",
                   "dedupKey": "jvm-sentinel/ThreadStorm/orders",
                   "startedAt": "2024-05-01T10:00:00Z", "at": "2024-05-01T10:00:00Z",
                   "runbook": "https://runbooks.example.com/ThreadStorm",
                   "evidence": {"startsPerSecond": 212,
                                "topSite": "SSLSocketImpl.startHandshake"},
                   "snapshot": "/var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr"}
                  """));
    }

    @Test
    void resolvedWithKeyAndNoSnapshot() {
      assertThat(json(JsonLogNotifier.line(resolved(warningWithKey()))))
          .isEqualTo(
              json(
                  """
                  {"status": "resolved", "rule": "CodeCacheFull", "target": "payments", "targetTags": {},
                   "key": "CodeHeap 'non-profiled nmethods'", "severity": "warning",
                   "summary": "Code cache segment 98% full on payments",
                   "dedupKey": "jvm-sentinel/CodeCacheFull/payments/CodeHeap 'non-profiled nmethods'",
                   "startedAt": "2024-05-01T10:00:00Z", "at": "2024-05-01T10:04:12Z",
                   "runbook": "", "evidence": {"segments": ["a", "b"], "usedPercent": 98.5},
                   "snapshot": null}
                  """));
    }

    @Test
    void updatedSaysSoUnderTheSameDedupKey() {
      var line = json(JsonLogNotifier.line(updated()));
      assertThat(line.get("status").asText()).isEqualTo("updated");
      assertThat(line.get("dedupKey").asText()).isEqualTo("jvm-sentinel/ThreadStorm/orders");
      assertThat(line.get("startedAt").asText()).isEqualTo("2024-05-01T10:00:00Z");
      assertThat(line.get("summary").asText()).endsWith("97% from Worker.spawn");
    }

    @Test
    void evidenceKeysAreSortedSoEqualNotificationsLogEqualLines() {
      assertThat(JsonLogNotifier.line(firing()))
          .contains("\"evidence\":{\"startsPerSecond\":212,\"topSite\":");
    }
  }

  @Nested
  class Webhook {
    @Test
    void firingIsTheLogFieldsPlusExplanationAndAction() {
      assertThat(WebhookNotifier.body(firing()))
          .isEqualTo(
              json(
                  """
                  {"status": "firing", "rule": "ThreadStorm", "target": "orders", "targetTags": {}, "key": "",
                   "severity": "critical",
                   "summary": "Thread storm on orders: 212 thread starts/s",
                   "dedupKey": "jvm-sentinel/ThreadStorm/orders",
                   "startedAt": "2024-05-01T10:00:00Z", "at": "2024-05-01T10:00:00Z",
                   "runbook": "https://runbooks.example.com/ThreadStorm",
                   "evidence": {"startsPerSecond": 212,
                                "topSite": "SSLSocketImpl.startHandshake"},
                   "snapshot": "/var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr",
                   "explanation": "The TLS handshake listener starts one thread per handshake (JDK-8246039).",
                   "action": "Upgrade the JDK or disable the handshake listener."}
                  """));
    }

    @Test
    void resolved() {
      assertThat(WebhookNotifier.body(TestNotifications.resolved()).get("status").asText())
          .isEqualTo("resolved");
      assertThat(WebhookNotifier.body(TestNotifications.resolved()).get("at").asText())
          .isEqualTo("2024-05-01T10:04:12Z");
    }
  }

  @Nested
  class Slack {
    @Test
    void updatedIsAFollowUpThatSaysItReplacesWhatWasSaid() {
      var body = SlackNotifier.body(updated());
      assertThat(body.get("text").asText())
          .isEqualTo(
              ":arrows_counterclockwise: [UPDATED] Thread storm on orders: 212 thread starts/s,"
                  + " 97% from Worker.spawn");
      assertThat(body.get("blocks").get(1).get("text").get("text").asText())
          .isEqualTo(
              "Updated at 2024-05-01T10:00:09Z: the evidence changed since this alert fired at"
                  + " 2024-05-01T10:00:00Z. This replaces what was said before.");
      assertThat(body.get("blocks").get(2).get("text").get("text").asText())
          .isEqualTo("The busiest creator is Worker.spawn.");
    }

    @Test
    void firingExplainsWhatToDoWithEvidenceAndRunbook() {
      assertThat(SlackNotifier.body(firing()))
          .isEqualTo(
              json(
                  """
                  {"text": ":rotating_light: [CRITICAL] Thread storm on orders: 212 thread starts/s",
                   "blocks": [
                    {"type": "header", "text": {"type": "plain_text", "emoji": false,
                      "text": "CRITICAL: Thread storm on orders: 212 thread starts/s"}},
                    {"type": "section", "text": {"type": "plain_text", "emoji": false,
                      "text": "The TLS handshake listener starts one thread per handshake (JDK-8246039)."}},
                    {"type": "section", "text": {"type": "plain_text", "emoji": false,
                      "text": "What to do: Upgrade the JDK or disable the handshake listener."}},
                    {"type": "section", "text": {"type": "mrkdwn",
                      "text": "*Evidence*\\n• `startsPerSecond`: 212\\n• `topSite`: `SSLSocketImpl.startHandshake`"}},
                    {"type": "context", "elements": [{"type": "mrkdwn",
                      "text": "target `orders` · rule `ThreadStorm` · started 2024-05-01T10:00:00Z · <https://runbooks.example.com/ThreadStorm|Runbook> · snapshot `/var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr`"}]}
                   ]}
                  """));
    }

    @Test
    void resolvedSaysResolvedAndHowLongItFired() {
      assertThat(SlackNotifier.body(resolved(warningWithKey())))
          .isEqualTo(
              json(
                  """
                  {"text": ":white_check_mark: [RESOLVED] Code cache segment 98% full on payments",
                   "blocks": [
                    {"type": "header", "text": {"type": "plain_text", "emoji": false,
                      "text": "RESOLVED: Code cache segment 98% full on payments"}},
                    {"type": "section", "text": {"type": "mrkdwn",
                      "text": "Resolved at 2024-05-01T10:04:12Z after 4m 12s (firing since 2024-05-01T10:00:00Z). The figures are those the alert last fired with, not readings after it cleared."}},
                    {"type": "context", "elements": [{"type": "mrkdwn",
                      "text": "target `payments` · `CodeHeap 'non-profiled nmethods'` · rule `CodeCacheFull` · started 2024-05-01T10:00:00Z"}]}
                   ]}
                  """));
    }

    @Test
    void textTheTargetChoseMentionsNoOneLinksNowhereAndStaysWithinSlacksLimits() {
      var body = SlackNotifier.body(TestNotifications.firingFromHostileCode());
      // Every mrkdwn text: the fallback, the sections, the context (the header is plain text).
      List<String> texts = new ArrayList<>();
      texts.add(body.get("text").asText());
      body.get("blocks")
          .forEach(
              block -> {
                block.path("elements").forEach(e -> texts.add(e.path("text").asText()));
                if (block.path("text").path("type").asText().equals("mrkdwn")) {
                  texts.add(block.path("text").path("text").asText());
                }
              });
      assertThat(texts).hasSize(3);
      assertThat(texts)
          .isNotEmpty()
          .allSatisfy(
              text ->
                  assertThat(text)
                      .doesNotContain("<!channel>", "<https://phish")
                      .hasSizeLessThanOrEqualTo(3000));
      assertThat(body.get("text").asText()).contains("Evil&lt;!channel&gt;|#tag");
    }

    /**
     * Each mrkdwn text (the fallback, the evidence, the context line) shows target text only in
     * code spans that stay closed; outside them nothing of it is left to format, link or mention.
     * The header, the explanation and what to do are plain text, cleaned of control, bidirectional
     * and zero-width characters.
     */
    @Test
    void targetTextFormatsNothingInAnyField() {
      var body = SlackNotifier.body(TestNotifications.firingWithHostileNames());
      List<String> mrkdwn = new ArrayList<>();
      List<com.fasterxml.jackson.databind.JsonNode> plain = new ArrayList<>();
      body.get("blocks")
          .forEach(
              block -> {
                List<com.fasterxml.jackson.databind.JsonNode> objects = new ArrayList<>();
                block.path("elements").forEach(objects::add);
                if (block.has("text")) {
                  objects.add(block.get("text"));
                }
                for (var object : objects) {
                  if (object.get("type").asText().equals("mrkdwn")) {
                    mrkdwn.add(object.get("text").asText());
                  } else {
                    plain.add(object);
                  }
                }
              });
      assertThat(mrkdwn).hasSize(2); // the evidence, the context
      assertThat(plain).hasSize(3); // the header, the explanation, what to do

      for (String text : mrkdwn) {
        assertThat(text.chars().filter(c -> c == '`').count() % 2).as(text).isZero();
        String outsideCode = text.replaceAll("`[^`\n]*`", "");
        assertThat(outsideCode)
            .as(text)
            .doesNotContain("Evil", "bold", "_it_", "~st~", "forged", "channel", "&amp;", "`");
        assertThat(text)
            .doesNotContain("\u001b", "\u200B", "\u202E", "<!channel>")
            .contains("Evilˋ*bold*ˋ_it_~st~_[31mred_[0m_forged_zw_exe.txt&lt;!channel&gt;&amp;");
      }
      assertThat(mrkdwn.get(0))
          .contains("• `topSite`: `Evilˋ", "• `startsPerSecond`: 212", "• `sites`: `[\"Evilˋ");

      String fallback = body.get("text").asText();
      assertThat(fallback)
          .startsWith(":rotating_light: [CRITICAL] Thread storm on orders: 97% from ")
          .endsWith("Evilˋ∗bold∗ˋ＿it＿∼st∼＿[31mred＿[0m＿forged＿zw＿exe.txt&lt;!channel&gt;&amp;");
      assertThat(fallback.substring(":rotating_light:".length()))
          .doesNotContain("*", "_it", "~", "`", "<!", "\u001b", "\n", "\u200B", "\u202E");

      String clean = "Evil`*bold*`_it_~st~_[31mred_[0m_forged_zw_exe.txt<!channel>&";
      assertThat(plain)
          .allSatisfy(
              object -> {
                assertThat(object.get("type").asText()).isEqualTo("plain_text");
                assertThat(object.get("emoji").asBoolean(true)).isFalse();
                assertThat(object.get("text").asText()).contains(clean);
              });
    }

    @Test
    void aCodeSpanStaysWithinItsLengthAndClosedWhateverTheValue() {
      String span = SlackText.code("<".repeat(1_000) + "`");
      assertThat(span).startsWith("`&lt;&lt;").endsWith("…`").hasSizeLessThanOrEqualTo(202);
      assertThat(span.chars().filter(c -> c == '`').count()).isEqualTo(2);
      assertThat(SlackText.code(" \n ")).isEqualTo("`_`");
      assertThat(SlackText.code("")).isEqualTo("(empty)");
    }

    @Test
    void evidenceIsCutToTheTopLinesInTheRulesOrderAndEscaped() {
      java.util.Map<String, Object> evidence = new java.util.LinkedHashMap<>();
      for (int i = 7; i >= 0; i--) {
        evidence.put("k" + i, "<v" + i + "&>");
      }
      assertThat(SlackNotifier.evidenceLines(evidence))
          .containsExactly(
              "• `k7`: `&lt;v7&amp;&gt;`",
              "• `k6`: `&lt;v6&amp;&gt;`",
              "• `k5`: `&lt;v5&amp;&gt;`",
              "• `k4`: `&lt;v4&amp;&gt;`",
              "• `k3`: `&lt;v3&amp;&gt;`",
              "… and 3 more");
    }
  }

  @Nested
  class PagerDuty {
    final Secret key = Secret.of("R0UT1NGKEY");

    @Test
    void firingTriggersWithTheDedupKey() {
      assertThat(PagerDutyNotifier.body(firing(), key))
          .isEqualTo(
              json(
                  """
                  {"routing_key": "R0UT1NGKEY", "event_action": "trigger",
                   "dedup_key": "jvm-sentinel/ThreadStorm/orders", "client": "jvm-sentinel",
                   "payload": {"summary": "Thread storm on orders: 212 thread starts/s",
                     "source": "orders", "severity": "critical",
                     "timestamp": "2024-05-01T10:00:00Z", "component": "ThreadStorm",
                     "custom_details": {"startsPerSecond": 212,
                                        "topSite": "SSLSocketImpl.startHandshake",
                       "jvm_sentinel_snapshot": "/var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr"}},
                   "links": [{"href": "https://runbooks.example.com/ThreadStorm", "text": "Runbook"}]}
                  """));
    }

    @Test
    void warningWithoutRunbookHasNoLinks() {
      assertThat(
              PagerDutyNotifier.body(warningWithKey(), key).get("payload").get("severity").asText())
          .isEqualTo("warning");
      assertThat(PagerDutyNotifier.body(warningWithKey(), key).has("links")).isFalse();
    }

    @Test
    void updatedTriggersTheSameDedupKeyAgainWithTheNewTextAndSaysWhy() {
      var body = PagerDutyNotifier.body(updated(), key);
      assertThat(body.get("event_action").asText()).isEqualTo("trigger");
      assertThat(body.get("dedup_key").asText()).isEqualTo("jvm-sentinel/ThreadStorm/orders");
      assertThat(body.get("payload").get("summary").asText()).endsWith("97% from Worker.spawn");
      assertThat(body.get("payload").get("custom_details").get("jvm_sentinel_update").asText())
          .isEqualTo("the evidence changed since the alert fired at 2024-05-01T10:00:00Z");
    }

    @Test
    void resolvedResolvesTheSameDedupKey() {
      assertThat(PagerDutyNotifier.body(resolved(), key))
          .isEqualTo(
              json(
                  """
                  {"routing_key": "R0UT1NGKEY", "event_action": "resolve",
                   "dedup_key": "jvm-sentinel/ThreadStorm/orders"}
                  """));
    }
  }

  @Nested
  class Alertmanager {
    final Instant sentAt = Instant.parse("2024-05-01T10:30:00Z");

    @Test
    void updatedIsPostedAgainWithTheSameLabelsAndTheNewAnnotations() {
      var first = AlertmanagerNotifier.body(firing(), sentAt).get(0);
      var update = AlertmanagerNotifier.body(updated(), sentAt).get(0);
      assertThat(update.get("labels")).isEqualTo(first.get("labels"));
      assertThat(update.get("startsAt")).isEqualTo(first.get("startsAt"));
      assertThat(update.get("endsAt")).isEqualTo(first.get("endsAt"));
      assertThat(update.get("annotations").get("summary").asText())
          .endsWith("97% from Worker.spawn");
      assertThat(update.get("annotations").get("description").asText())
          .isEqualTo("The busiest creator is Worker.spawn.");
    }

    @Test
    void firingEndsFourResendIntervalsAfterItWasSent() {
      assertThat(AlertmanagerNotifier.body(firing(), sentAt))
          .isEqualTo(
              json(
                  """
                  [{"labels": {"alertname": "ThreadStorm", "target": "orders",
                               "severity": "critical", "source": "jvm-sentinel"},
                    "annotations": {"summary": "Thread storm on orders: 212 thread starts/s",
                      "description": "The TLS handshake listener starts one thread per handshake (JDK-8246039).",
                      "action": "Upgrade the JDK or disable the handshake listener.",
                      "runbook_url": "https://runbooks.example.com/ThreadStorm",
                      "snapshot": "/var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr"},
                    "startsAt": "2024-05-01T10:00:00Z", "endsAt": "2024-05-01T10:34:00Z"}]
                  """));
    }

    @Test
    void resolvedEndsWhenItResolvedAndKeyIsALabel() {
      assertThat(AlertmanagerNotifier.body(resolved(warningWithKey()), sentAt))
          .isEqualTo(
              json(
                  """
                  [{"labels": {"alertname": "CodeCacheFull", "target": "payments",
                               "key": "CodeHeap 'non-profiled nmethods'",
                               "severity": "warning", "source": "jvm-sentinel"},
                    "annotations": {"summary": "Code cache segment 98% full on payments",
                      "description": "The JIT will stop compiling.",
                      "action": "Raise -XX:ReservedCodeCacheSize."},
                    "startsAt": "2024-05-01T10:00:00Z", "endsAt": "2024-05-01T10:04:12Z"}]
                  """));
    }

    @Test
    void alertsUrlIsUnderTheBaseUrl() {
      assertThat(AlertmanagerNotifier.alertsUrl(java.net.URI.create("http://am:9093/")))
          .hasToString("http://am:9093/api/v2/alerts");
      assertThat(AlertmanagerNotifier.alertsUrl(java.net.URI.create("http://h/prefix")))
          .hasToString("http://h/prefix/api/v2/alerts");
    }
  }

  /**
   * Target text reaches the JSON sinks (the log line, the webhook, PagerDuty's summary and details,
   * Alertmanager's labels and annotations) as data: every text and key without control,
   * line-separator, bidirectional or zero-width characters, the rest of the name kept.
   */
  @Nested
  class HostileNames {
    static final String CLEAN = "Evil`*bold*`_it_~st~_[31mred_[0m_forged_zw_exe.txt<!channel>&";
    final AlertNotification hostile = TestNotifications.firingWithHostileNames();

    @Test
    void everyJsonSinkCarriesTheNamesCleanedAndWhole() {
      var bodies =
          List.of(
              json(JsonLogNotifier.line(hostile)),
              WebhookNotifier.body(hostile),
              PagerDutyNotifier.body(hostile, Secret.of("K")),
              AlertmanagerNotifier.body(hostile, Instant.parse("2024-05-01T10:30:00Z")));
      for (var body : bodies) {
        List<String> texts = new ArrayList<>();
        collectTexts(body, texts);
        assertThat(texts)
            .as(body.toString())
            .allSatisfy(
                text -> assertThat(text).doesNotContain("\u001b", "\n", "\r", "\u200B", "\u202E"))
            .anySatisfy(text -> assertThat(text).contains(CLEAN));
      }
      var payload = PagerDutyNotifier.body(hostile, Secret.of("K")).get("payload");
      assertThat(payload.get("summary").asText())
          .isEqualTo("Thread storm on orders: 97% from " + CLEAN);
      assertThat(payload.get("source").asText()).isEqualTo("orders-" + CLEAN);
      assertThat(payload.get("custom_details").get("topSite").asText()).isEqualTo(CLEAN);
      assertThat(payload.get("custom_details").has(CLEAN)).isTrue();
      var alert = AlertmanagerNotifier.body(hostile, Instant.parse("2024-05-01T10:30:00Z")).get(0);
      assertThat(alert.get("labels").get("key").asText()).isEqualTo(CLEAN + ":443");
      assertThat(alert.get("labels").get("pod").asText()).isEqualTo(CLEAN);
      assertThat(alert.get("annotations").get("description").asText())
          .isEqualTo("The busiest creator is " + CLEAN + ".");
    }

    @Test
    void theNotificationItselfIsCleanedWhereItIsMadeSoNoSinkCanForget() {
      assertThat(hostile.summary()).endsWith(CLEAN);
      assertThat(hostile.target()).isEqualTo("orders-" + CLEAN);
      assertThat(hostile.targetTags()).containsEntry("pod", CLEAN);
      assertThat(hostile.evidence()).containsEntry("topSite", CLEAN).containsKey(CLEAN);
      assertThat(hostile.evidence().get("sites")).isEqualTo(List.of(CLEAN, "Worker.spawn"));
      assertThat(hostile.evidence().get("startsPerSecond")).isEqualTo(212);
      assertThat(hostile.dedupKey())
          .contains(CLEAN + ":443")
          .doesNotContain("\u001b", "\n", "\u200B", "\u202E");
    }

    private static void collectTexts(
        com.fasterxml.jackson.databind.JsonNode node, List<String> texts) {
      if (node.isTextual()) {
        texts.add(node.asText());
      }
      node.fieldNames().forEachRemaining(texts::add);
      node.forEach(child -> collectTexts(child, texts));
    }
  }

  /** An alert names its snapshot only once checked whole; until then every sink says why not. */
  @Nested
  class SnapshotUnavailable {
    static final String WHY = "being written; named here once checked whole";
    final AlertNotification pending = warningWithKey().withSnapshotUnavailable(WHY);

    @Test
    void theLogAndTheWebhookSayWhy() {
      var line = json(JsonLogNotifier.line(pending));
      assertThat(line.get("snapshot").isNull()).isTrue();
      assertThat(line.get("snapshotUnavailable").asText()).isEqualTo(WHY);
      assertThat(WebhookNotifier.body(pending).get("snapshotUnavailable").asText()).isEqualTo(WHY);
      assertThat(json(JsonLogNotifier.line(firing())).has("snapshotUnavailable")).isFalse();
    }

    @Test
    void alertmanagerSlackAndPagerDutySayWhy() {
      assertThat(
              AlertmanagerNotifier.body(pending, Instant.parse("2024-05-01T10:30:00Z"))
                  .get(0)
                  .get("annotations")
                  .get("snapshot_unavailable")
                  .asText())
          .isEqualTo(WHY);
      assertThat(SlackNotifier.body(pending).toString()).contains("no JFR snapshot: `" + WHY + "`");
      assertThat(
              PagerDutyNotifier.body(pending, Secret.of("K"))
                  .get("payload")
                  .get("custom_details")
                  .get("jvm_sentinel_snapshot_unavailable")
                  .asText())
          .isEqualTo(WHY);
    }
  }
}
