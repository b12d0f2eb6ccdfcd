package io.jvmsentinel.daemon.export.datadog;

import com.timgroup.statsd.Event;
import com.timgroup.statsd.ServiceCheck;
import com.timgroup.statsd.StatsDClient;
import io.jvmsentinel.collectors.text.SafeText;
import io.jvmsentinel.daemon.alert.AlertKey;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.alert.notify.NotificationJson;
import io.jvmsentinel.daemon.alert.notify.Notifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sends each notification to the Datadog Agent over DogStatsD as an event (the stream people read:
 * summary, explanation, what to do, evidence, runbook) and as a run of the service check {@code
 * jvm_sentinel.alert.<RuleId>} (what monitors watch: CRITICAL or WARNING while firing, OK once
 * resolved).
 *
 * <p>DogStatsD is fire-and-forget: {@link #send} only queues both messages on the non-blocking
 * client and never fails, so "delivered" means "handed to the client"; what the client cannot send
 * is counted as {@code jvm.sentinel.dogstatsd.errors}. A datagram that does not fit one packet is
 * refused by the client, so the event text is cut to fit, evidence first.
 */
public final class DatadogNotifier implements Notifier {
  public static final String SOURCE_TYPE = "jvm-sentinel";
  public static final String SERVICE_CHECK_PREFIX = "jvm_sentinel.alert.";

  static final int TITLE_MAX = 200;
  static final int CHECK_MESSAGE_MAX = 500;
  // The event's own fields (header, date, alert type, source) and what the client may append on
  // its own: a container id and the external environment of origin detection.
  static final int RESERVED_BYTES = 200;
  private static final int VALUE_MAX = 200;
  static final int AGGREGATION_KEY_MAX = 100;

  private final StatsDClient client;
  private final int maxMessageBytes;
  private final String where;

  /**
   * @param maxMessageBytes the packet size of the transport less the client's constant tags
   * @param where the agent's address, for logs
   */
  public DatadogNotifier(StatsDClient client, int maxMessageBytes, String where) {
    this.client = client;
    this.maxMessageBytes = maxMessageBytes;
    this.where = where;
  }

  @Override
  public String name() {
    return "datadog";
  }

  private static final Set<String> OWN_TAGS = Set.of("target", "rule", "severity", "key");

  @Override
  public void send(AlertNotification n) {
    String[] tags = eventTags(n);
    client.recordEvent(event(n, tags, maxMessageBytes), tags);
    client.recordServiceCheckRun(serviceCheck(n));
  }

  static String[] eventTags(AlertNotification n) {
    List<String> tags = new ArrayList<>();
    tags.add(DogStatsdNames.tag("target", n.target()));
    tags.addAll(targetTags(n));
    tags.add(DogStatsdNames.tag("rule", n.ruleId()));
    tags.add(DogStatsdNames.tag("severity", n.severity().tag()));
    if (!n.key().isEmpty()) {
      tags.add(DogStatsdNames.tag("key", n.key()));
    }
    return tags.toArray(String[]::new);
  }

  /** The target's tags (namespace, pod, ...), except those named like the alert's own tags. */
  private static List<String> targetTags(AlertNotification n) {
    Map<String, String> tags = new LinkedHashMap<>(n.targetTags());
    tags.keySet().removeAll(OWN_TAGS);
    return List.of(DogStatsdNames.tags(tags));
  }

  static Event event(AlertNotification n, String[] tags, int maxMessageBytes) {
    // One line: the client escapes line breaks in the text only.
    String title = clip(SafeText.of(headline(n)), TITLE_MAX);
    String aggregationKey = aggregationKey(n);
    int budget =
        maxMessageBytes
            - RESERVED_BYTES
            - bytes(title)
            - bytes(aggregationKey)
            - bytes(String.join(",", tags));
    return Event.builder()
        .withTitle(title)
        .withText(text(n, budget))
        .withDate(n.at().toEpochMilli())
        .withAggregationKey(aggregationKey)
        .withSourceTypeName(SOURCE_TYPE)
        .withAlertType(alertType(n))
        .build();
  }

  /**
   * The dedup key as a field of the event's datagram: no field separator (it may carry a key the
   * target chose) and at most Datadog's {@value #AGGREGATION_KEY_MAX} characters.
   */
  static String aggregationKey(AlertNotification n) {
    return AlertKey.shortened(DogStatsdNames.message(n.dedupKey()), AGGREGATION_KEY_MAX);
  }

  /** The summary, after "Resolved: " for a resolve: in the event stream it reads as one. */
  private static String headline(AlertNotification n) {
    return (n.status() == AlertNotification.Status.RESOLVED ? "Resolved: " : "") + n.summary();
  }

  static Event.AlertType alertType(AlertNotification n) {
    if (n.status() == AlertNotification.Status.RESOLVED) {
      return Event.AlertType.SUCCESS;
    }
    return n.severity() == Severity.CRITICAL ? Event.AlertType.ERROR : Event.AlertType.WARNING;
  }

  /**
   * Explanation, what to do, evidence and runbook, within {@code budget} bytes as sent (line breaks
   * travel escaped, as two bytes). Evidence lines go first when space runs out, then the end of the
   * explanation; the runbook line is always kept.
   */
  static String text(AlertNotification n, int budget) {
    List<String> head = new ArrayList<>();
    if (n.status() == AlertNotification.Status.RESOLVED) {
      head.add(
          "Resolved at "
              + n.at()
              + " (firing since "
              + n.startedAt()
              + "). "
              + AlertNotification.RESOLVED_FIGURES);
    } else if (n.status() == AlertNotification.Status.UPDATED) {
      head.add(
          "Updated at "
              + n.at()
              + ": the evidence changed since this alert fired at "
              + n.startedAt()
              + ".");
    }
    if (!n.explanation().isEmpty()) {
      head.add(n.explanation());
    }
    if (!n.action().isEmpty()) {
      head.add("What to do: " + n.action());
    }
    List<String> tail = new ArrayList<>();
    if (!n.runbook().isEmpty()) {
      tail.add("Runbook: " + n.runbook());
    }
    n.snapshot().ifPresent(s -> tail.add("JFR snapshot: " + s));
    n.snapshotUnavailable().ifPresent(why -> tail.add("No JFR snapshot: " + why));
    String end = String.join("\n\n", tail);
    String start = String.join("\n\n", head);
    int separator = start.isEmpty() || end.isEmpty() ? 0 : bytes("\n\n");
    int room = budget - bytes(end) - separator;
    if (bytes(start) > room) {
      return join(clipBytes(start, room), end);
    }
    String evidence = evidence(n.evidence(), room - bytes(start) - bytes("\n\n"));
    return join(join(start, evidence), end);
  }

  /** {@code Evidence:} and as many {@code - key: value} lines as fit, in the rule's order. */
  static String evidence(Map<String, Object> evidence, int budget) {
    if (evidence.isEmpty()) {
      return "";
    }
    StringBuilder text = new StringBuilder("Evidence:");
    int shown = 0;
    for (Map.Entry<String, Object> e : evidence.entrySet()) {
      Object v = e.getValue();
      String value = v instanceof String s ? s : NotificationJson.value(v).toString();
      String line = "\n- " + e.getKey() + ": " + clip(value, VALUE_MAX);
      String more = "\n… and " + (evidence.size() - shown - 1) + " more";
      boolean last = shown == evidence.size() - 1;
      if (bytes(text + line + (last ? "" : more)) > budget) {
        break;
      }
      text.append(line);
      shown++;
    }
    if (shown == 0) {
      return "";
    }
    if (shown < evidence.size()) {
      text.append("\n… and ").append(evidence.size() - shown).append(" more");
    }
    return text.toString();
  }

  static ServiceCheck serviceCheck(AlertNotification n) {
    boolean resolved = n.status() == AlertNotification.Status.RESOLVED;
    ServiceCheck.Status status =
        resolved
            ? ServiceCheck.Status.OK
            : n.severity() == Severity.CRITICAL
                ? ServiceCheck.Status.CRITICAL
                : ServiceCheck.Status.WARNING;
    List<String> tags = new ArrayList<>();
    tags.add(DogStatsdNames.tag("target", n.target()));
    tags.addAll(targetTags(n));
    if (!n.key().isEmpty()) {
      tags.add(DogStatsdNames.tag("key", n.key()));
    }
    return ServiceCheck.builder()
        .withName(SERVICE_CHECK_PREFIX + DogStatsdNames.name(n.ruleId()))
        .withStatus(status)
        .withTimestamp((int) n.at().getEpochSecond())
        .withTags(tags.toArray(String[]::new))
        .withMessage(DogStatsdNames.message(clip(headline(n), CHECK_MESSAGE_MAX)))
        .build();
  }

  private static String join(String a, String b) {
    return a.isEmpty() ? b : b.isEmpty() ? a : a + "\n\n" + b;
  }

  /** Bytes on the wire: UTF-8, with each line break escaped as two bytes by the client. */
  static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length
        + (int) text.chars().filter(c -> c == '\n').count();
  }

  private static String clip(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  private static String clipBytes(String text, int max) {
    if (bytes(text) <= max) {
      return text;
    }
    int room = max - bytes("…");
    int used = 0;
    int end = 0;
    while (end < text.length()) {
      int cp = text.codePointAt(end);
      int size = cp == '\n' ? 2 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (used + size > room) {
        break;
      }
      used += size;
      end += Character.charCount(cp);
    }
    return room <= 0 ? "" : text.substring(0, end) + "…";
  }

  @Override
  public String toString() {
    return "datadog " + where;
  }
}
