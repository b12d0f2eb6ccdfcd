package io.jvmsentinel.daemon.export.datadog;

import static io.jvmsentinel.daemon.export.datadog.DogStatsdPublisherTest.clientTags;
import static org.assertj.core.api.Assertions.assertThat;

import com.timgroup.statsd.NonBlockingStatsDClient;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines.Event;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines.Line;
import io.jvmsentinel.daemon.export.datadog.DogStatsdLines.ServiceCheck;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Alert notifications as a Datadog Agent receives them: one event and one service check each. */
class DatadogNotifierTest {
  static final Instant STARTED = Instant.parse("2024-05-01T10:00:00Z");
  static final Instant RESOLVED_AT = Instant.parse("2024-05-01T10:04:12Z");
  static final String TEXT =
      """
      The TLS handshake listener starts one thread per handshake (JDK-8246039).

      What to do: Upgrade the JDK or disable the handshake listener.

      Evidence:
      - startsPerSecond: 212
      - topSite: SSLSocketImpl.startHandshake

      Runbook: https://runbooks.example.com/ThreadStorm

      JFR snapshot: /var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr""";

  @TempDir Path dir;
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  static AlertNotification firing(Severity severity, String key, Map<String, Object> evidence) {
    return new AlertNotification(
        "ThreadStorm",
        "orders",
        key,
        severity,
        AlertNotification.Status.FIRING,
        STARTED,
        STARTED,
        "Thread storm on orders: 212 thread starts/s",
        "The TLS handshake listener starts one thread per handshake (JDK-8246039).",
        "Upgrade the JDK or disable the handshake listener.",
        "https://runbooks.example.com/ThreadStorm",
        evidence,
        Optional.of("/var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr"));
  }

  static AlertNotification firing() {
    return firing(
        Severity.CRITICAL,
        "",
        // Sorted: the order the event text shows, whatever Map.of iterates in this run.
        new java.util.TreeMap<>(
            Map.<String, Object>of(
                "startsPerSecond", 212, "topSite", "SSLSocketImpl.startHandshake")));
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

  /** {@code n} with this summary and explanation, and no snapshot. */
  static AlertNotification withText(AlertNotification n, String summary, String explanation) {
    return new AlertNotification(
        n.ruleId(),
        n.target(),
        n.key(),
        n.severity(),
        n.status(),
        n.startedAt(),
        n.at(),
        summary,
        explanation,
        n.action(),
        n.runbook(),
        n.evidence(),
        Optional.empty());
  }

  record Sink(FakeAgent agent, NonBlockingStatsDClient client, DatadogNotifier notifier) {
    List<Line> deliver(AlertNotification n) throws Exception {
      notifier.send(n);
      return agent.nextBatch(client);
    }
  }

  Sink sink(String transport) throws Exception {
    FakeAgent agent = transport.equals("udp") ? FakeAgent.udp() : FakeAgent.unixSocket(dir);
    closing.add(agent);
    NonBlockingStatsDClient client =
        DogStatsdClients.create(agent.address(), Map.of("team", "jvm"), registry);
    closing.add(0, client::stop);
    int packet = agent.address().unixSocket() ? 8192 : 1432;
    return new Sink(agent, client, new DatadogNotifier(client, packet - 100, "test"));
  }

  static List<String> tags(String... ours) {
    List<String> tags = clientTags("team:jvm");
    tags.addAll(List.of(ours));
    return tags;
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"udp", "uds"})
  void firingIsAnErrorEventAndACriticalServiceCheck(String transport) throws Exception {
    Sink sink = sink(transport);

    assertThat(sink.deliver(firing()))
        .containsExactly(
            new Event(
                "Thread storm on orders: 212 thread starts/s",
                TEXT,
                Map.of(
                    "d", "1714557600",
                    "k", "jvm-sentinel/ThreadStorm/orders",
                    "s", "jvm-sentinel",
                    "t", "error"),
                tags("target:orders", "rule:ThreadStorm", "severity:critical")),
            new ServiceCheck(
                "jvm_sentinel.alert.ThreadStorm",
                2,
                Map.of("d", "1714557600", "m", "Thread storm on orders: 212 thread starts/s"),
                tags("target:orders")));
  }

  @ParameterizedTest(name = "over {0}")
  @ValueSource(strings = {"udp", "uds"})
  void resolvedIsASuccessEventAndAnOkServiceCheck(String transport) throws Exception {
    Sink sink = sink(transport);

    assertThat(sink.deliver(resolved(firing())))
        .containsExactly(
            new Event(
                "Resolved: Thread storm on orders: 212 thread starts/s",
                "Resolved at 2024-05-01T10:04:12Z (firing since 2024-05-01T10:00:00Z). The figures"
                    + " are those the alert last fired with, not readings after it cleared.\n\n"
                    + TEXT,
                Map.of(
                    "d", "1714557852",
                    "k", "jvm-sentinel/ThreadStorm/orders",
                    "s", "jvm-sentinel",
                    "t", "success"),
                tags("target:orders", "rule:ThreadStorm", "severity:critical")),
            new ServiceCheck(
                "jvm_sentinel.alert.ThreadStorm",
                0,
                Map.of(
                    "d",
                    "1714557852",
                    "m",
                    "Resolved: Thread storm on orders: 212 thread starts/s"),
                tags("target:orders")));
  }

  @Test
  void anUpdateSaysSoFirstAndKeepsTheAlertsSeverityAndAggregationKey() {
    AlertNotification f = firing(Severity.CRITICAL, "", Map.of());
    AlertNotification updated =
        new AlertNotification(
            f.ruleId(),
            f.target(),
            f.key(),
            f.severity(),
            AlertNotification.Status.UPDATED,
            f.startedAt(),
            f.startedAt().plusSeconds(9),
            f.summary() + ", 97% from Worker.spawn",
            "The busiest creator is Worker.spawn.",
            f.action(),
            f.runbook(),
            f.evidence(),
            f.snapshot());

    assertThat(DatadogNotifier.text(updated, 4000))
        .startsWith(
            "Updated at 2024-05-01T10:00:09Z: the evidence changed since this alert fired at"
                + " 2024-05-01T10:00:00Z.\n\nThe busiest creator is Worker.spawn.");
    assertThat(DatadogNotifier.alertType(updated))
        .isEqualTo(com.timgroup.statsd.Event.AlertType.ERROR);
    assertThat(DatadogNotifier.event(updated, new String[0], 8000).getAggregationKey())
        .isEqualTo("jvm-sentinel/ThreadStorm/orders");
  }

  @Test
  void theTargetsTagsTagTheEventAndTheServiceCheckButNeverReplaceTheAlertsOwn() throws Exception {
    Sink sink = sink("udp");
    Map<String, String> targetTags = new java.util.LinkedHashMap<>();
    targetTags.put("namespace", "shop");
    targetTags.put("severity", "low");
    AlertNotification tagged = firing().withTargetTags(targetTags);

    List<Line> lines = sink.deliver(tagged);

    assertThat(((Event) lines.get(0)).tags())
        .containsExactlyInAnyOrderElementsOf(
            tags("target:orders", "namespace:shop", "rule:ThreadStorm", "severity:critical"));
    assertThat(((ServiceCheck) lines.get(1)).tags())
        .containsExactlyInAnyOrderElementsOf(tags("target:orders", "namespace:shop"));
  }

  @Test
  void aWarningWithAKeyIsAWarningEventAndServiceCheckTaggedWithTheKey() throws Exception {
    Sink sink = sink("udp");
    AlertNotification warning = firing(Severity.WARNING, "CodeHeap 'profiled nmethods'", Map.of());

    List<Line> lines = sink.deliver(warning);

    assertThat(lines).hasSize(2);
    Event event = (Event) lines.get(0);
    assertThat(event.fields())
        .containsEntry("t", "warning")
        .containsEntry("k", "jvm-sentinel/ThreadStorm/orders/CodeHeap 'profiled nmethods'");
    assertThat(event.tags())
        .containsExactlyInAnyOrderElementsOf(
            tags(
                "target:orders",
                "rule:ThreadStorm",
                "severity:warning",
                "key:CodeHeap 'profiled nmethods'"));
    assertThat(event.text()).doesNotContain("Evidence");
    ServiceCheck check = (ServiceCheck) lines.get(1);
    assertThat(check.status()).isEqualTo(1);
    assertThat(check.tags())
        .containsExactlyInAnyOrderElementsOf(
            tags("target:orders", "key:CodeHeap 'profiled nmethods'"));
  }

  @Test
  void namesTheTargetChoseCannotAddTagsOrFieldsOrBreakTheDatagram() throws Exception {
    Sink sink = sink("udp");
    String site = "Evil|#forged:tag,other|d:0\nforged.metric:1|c" + "A".repeat(4_000);
    AlertNotification n = firing(Severity.CRITICAL, site + ":443", Map.of("topSite", site));
    AlertNotification hostile =
        withText(n, "Thread storm on orders: 100% from " + site, n.explanation());

    // The strict reader fails on any field, tag or line the datagram should not have.
    List<Line> lines = sink.deliver(hostile);

    assertThat(lines).hasSize(2);
    Event event = (Event) lines.get(0);
    ServiceCheck check = (ServiceCheck) lines.get(1);
    assertThat(event.title())
        .doesNotContain("\n")
        .startsWith("Thread storm on orders: 100% from Evil|");
    assertThat(event.tags()).noneMatch(tag -> tag.startsWith("forged"));
    assertThat(check.tags())
        .noneMatch(tag -> tag.startsWith("forged"))
        .allSatisfy(tag -> assertThat(tag).hasSizeLessThanOrEqualTo(DogStatsdNames.TAG_MAX));
    assertThat(check.fields().get("m"))
        .startsWith("Thread storm on orders: 100% from Evil/#forged");
    assertThat(check.fields().get("d")).isEqualTo(Long.toString(STARTED.getEpochSecond()));
    assertThat(event.fields().get("k")).hasSizeLessThanOrEqualTo(100).doesNotContain("|");
    assertThat(errors()).isZero();
  }

  /**
   * Datadog renders an event's text as markdown only between a leading {@code %%% \n} and a
   * trailing {@code \n %%%}; ours never has them, and target text cannot add them: it reaches the
   * event on one line per field, without control, bidirectional or zero-width characters.
   */
  @Test
  void targetTextCannotTurnTheEventIntoMarkdownOrHideWhatItSays() throws Exception {
    Sink sink = sink("udp");
    String name = "Evil`*b*`_i_~s~\u001b[31mred\u200Bzw\u202Eexe";
    String markdown = "%%% \n**bold** [click](https://phish.example) @all " + name + "\n %%%";
    AlertNotification hostile =
        new AlertNotification(
            "ThreadStorm",
            "orders",
            "",
            Severity.CRITICAL,
            AlertNotification.Status.FIRING,
            STARTED,
            STARTED,
            "Thread storm on orders: 100% from " + name + "\nforged",
            markdown,
            markdown,
            "",
            Map.of("topSite", markdown),
            Optional.empty());

    Event event = (Event) sink.deliver(hostile).get(0);

    String clean = "Evil`*b*`_i_~s~_[31mred_zw_exe";
    assertThat(event.title()).isEqualTo("Thread storm on orders: 100% from " + clean + "_forged");
    assertThat(event.text())
        .isEqualTo(
            "%%% _**bold** [click](https://phish.example) @all "
                + clean
                + "_ %%%\n\nWhat to do: %%% _**bold** [click](https://phish.example) @all "
                + clean
                + "_ %%%\n\nEvidence:\n- topSite: %%% _**bold** [click](https://phish.example)"
                + " @all "
                + clean
                + "_ %%%")
        .doesNotStartWith("%%% \n")
        .doesNotEndWith("\n %%%");
    assertThat(errors()).isZero();
  }

  @Test
  void evidenceIsCutSoTheEventFitsOneUdpPacket() throws Exception {
    Sink sink = sink("udp");
    Map<String, Object> evidence = new LinkedHashMap<>();
    for (int i = 0; i < 300; i++) {
      evidence.put("site%03d".formatted(i), "é".repeat(150)); // two bytes each in UTF-8
    }

    List<Line> lines = sink.deliver(firing(Severity.CRITICAL, "", evidence));

    // It arrived, and its lengths matched: the client refuses a message larger than a packet.
    Event event = (Event) lines.get(0);
    assertThat(event.text())
        .startsWith(
            "The TLS handshake listener starts one thread per handshake (JDK-8246039).\n\n"
                + "What to do: Upgrade the JDK or disable the handshake listener.\n\n"
                + "Evidence:\n- site000: ")
        .containsPattern("\n… and 29[0-9] more\n\nRunbook: https://runbooks.example.com/")
        .endsWith("\n\nJFR snapshot: /var/lib/jvm-sentinel/snapshots/orders-ThreadStorm.jfr");
    assertThat(errors()).isZero();
  }

  @Test
  void aHugeExplanationIsCutAndTheRunbookKept() throws Exception {
    Sink sink = sink("udp");
    AlertNotification n = firing();
    AlertNotification huge = withText(n, n.summary(), "x".repeat(20_000));

    Event event = (Event) sink.deliver(huge).get(0);

    assertThat(event.text())
        .startsWith("xxxx")
        .endsWith("x…\n\nRunbook: https://runbooks.example.com/ThreadStorm")
        .doesNotContain("Evidence");
    assertThat(errors()).isZero();
  }

  double errors() {
    return registry.get("jvm.sentinel.dogstatsd.errors").counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }
}
