package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import io.jvmsentinel.daemon.alert.Severity;
import io.jvmsentinel.daemon.config.Secret;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Posts a readable message to a Slack incoming webhook: {@code text} (the notification fallback and
 * the line phones show) plus blocks with the summary, the explanation, what to do, the top evidence
 * and the runbook. The webhook URL is a credential, so logs show its host only.
 *
 * <p>Summaries, explanations, actions, evidence, keys and tags carry text the target chose, so none
 * of it is read as mrkdwn ({@link SlackText}): the header, the explanation and what to do are
 * {@code plain_text}; in the evidence and the context line each such value is a code span; the
 * fallback text has the mrkdwn markers as look-alikes.
 */
public final class SlackNotifier implements Notifier {
  static final int EVIDENCE_LINES = 5;
  // Slack rejects longer header texts and section texts.
  private static final int HEADER_MAX = 150;
  private static final int SECTION_MAX = 3000;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Secret webhookUrl;
  private final JsonPoster poster;

  public SlackNotifier(Secret webhookUrl, HttpClient client, Duration timeout) {
    this.webhookUrl = webhookUrl;
    this.poster = new JsonPoster(client, timeout);
  }

  @Override
  public String name() {
    return "slack";
  }

  @Override
  public void send(AlertNotification notification) throws IOException {
    URI url = URI.create(webhookUrl.value());
    poster.post(url, SafeUrls.withoutPath(url), Map.of(), body(notification));
  }

  static ObjectNode body(AlertNotification n) {
    boolean resolved = n.status() == AlertNotification.Status.RESOLVED;
    boolean updated = n.status() == AlertNotification.Status.UPDATED;
    // A webhook cannot edit the message it posted: an update is a follow-up that says so.
    String label = resolved ? "RESOLVED" : updated ? "UPDATED" : n.severity().name();
    String emoji =
        resolved
            ? ":white_check_mark:"
            : updated
                ? ":arrows_counterclockwise:"
                : n.severity() == Severity.CRITICAL ? ":rotating_light:" : ":warning:";
    ObjectNode message = NODES.objectNode();
    // Slack reads the fallback text as mrkdwn too: a summary naming the target's code must not
    // become a link, an @channel mention or formatting (class names may hold '<', '>', '|', '*').
    message.put(
        "text", clip(emoji + " [" + label + "] " + SlackText.fallback(n.summary()), SECTION_MAX));
    ArrayNode blocks = message.putArray("blocks");
    blocks.add(header(clip(label + ": " + SlackText.plain(n.summary()), HEADER_MAX)));
    if (resolved) {
      blocks.add(
          section(
              "Resolved at "
                  + n.at()
                  + " after "
                  + elapsed(Duration.between(n.startedAt(), n.at()))
                  + " (firing since "
                  + n.startedAt()
                  + "). "
                  + AlertNotification.RESOLVED_FIGURES));
    } else {
      if (updated) {
        blocks.add(
            section(
                "Updated at "
                    + n.at()
                    + ": the evidence changed since this alert fired at "
                    + n.startedAt()
                    + ". This replaces what was said before."));
      }
      if (!n.explanation().isEmpty()) {
        blocks.add(plainSection(n.explanation()));
      }
      if (!n.action().isEmpty()) {
        blocks.add(plainSection("What to do: " + n.action()));
      }
      if (!n.evidence().isEmpty()) {
        blocks.add(section("*Evidence*\n" + String.join("\n", evidenceLines(n.evidence()))));
      }
    }
    blocks.add(context(facts(n)));
    return message;
  }

  /**
   * The first {@value #EVIDENCE_LINES} entries in the rule's order (the cause first), as {@code •
   * `key`: value}: numbers as they are, text (and lists or maps, which may hold text) as a code
   * span.
   */
  static List<String> evidenceLines(Map<String, Object> evidence) {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, Object> e : evidence.entrySet()) {
      if (lines.size() == EVIDENCE_LINES) {
        lines.add("… and " + (evidence.size() - EVIDENCE_LINES) + " more");
        break;
      }
      Object v = e.getValue();
      String value =
          v instanceof Number || v instanceof Boolean
              ? String.valueOf(v)
              : SlackText.code(v instanceof String s ? s : NotificationJson.value(v).toString());
      lines.add("• " + SlackText.code(e.getKey()) + ": " + value);
    }
    return lines;
  }

  /**
   * Target, tags, key, rule, start, links: as many as fit Slack's limit, whole, so no code span is
   * cut open (the text after an unclosed backtick would be read as mrkdwn again).
   */
  private static String facts(AlertNotification n) {
    List<String> parts = new ArrayList<>();
    parts.add("target " + SlackText.code(n.target()));
    n.targetTags().forEach((tag, value) -> parts.add(SlackText.code(tag + "=" + value)));
    if (!n.key().isEmpty()) {
      parts.add(SlackText.code(n.key()));
    }
    parts.add("rule " + SlackText.code(n.ruleId()));
    parts.add("started " + n.startedAt());
    if (!n.runbook().isEmpty()) {
      // Slack links only absolute URLs; a repository path is shown as code.
      if (n.runbook().startsWith("https://") || n.runbook().startsWith("http://")) {
        parts.add("<" + n.runbook() + "|Runbook>");
      } else {
        parts.add("runbook " + SlackText.code(n.runbook()));
      }
    }
    n.snapshot().ifPresent(s -> parts.add("snapshot " + SlackText.code(s)));
    n.snapshotUnavailable().ifPresent(why -> parts.add("no JFR snapshot: " + SlackText.code(why)));
    // The URL is built by the daemon from http.externalUrl (validated) and percent-encoded names.
    n.page().ifPresent(url -> parts.add("<" + url + "|Status page>"));
    StringBuilder text = new StringBuilder();
    for (String part : parts) {
      String separator = text.length() == 0 ? "" : " · ";
      if (text.length() + separator.length() + part.length() > SECTION_MAX - 2) {
        text.append(" …");
        break;
      }
      text.append(separator).append(part);
    }
    return text.toString();
  }

  private static ObjectNode header(String text) {
    ObjectNode block = NODES.objectNode().put("type", "header");
    plainText(block.putObject("text"), text);
    return block;
  }

  /** A section Slack shows as typed: no mrkdwn, no links, no mentions, no emoji codes. */
  private static ObjectNode plainSection(String text) {
    ObjectNode block = NODES.objectNode().put("type", "section");
    plainText(block.putObject("text"), clip(SlackText.plain(text), SECTION_MAX));
    return block;
  }

  private static void plainText(ObjectNode object, String text) {
    object.put("type", "plain_text").put("text", text).put("emoji", false);
  }

  private static ObjectNode section(String mrkdwn) {
    ObjectNode block = NODES.objectNode().put("type", "section");
    block.putObject("text").put("type", "mrkdwn").put("text", clip(mrkdwn, SECTION_MAX));
    return block;
  }

  private static ObjectNode context(String mrkdwn) {
    ObjectNode block = NODES.objectNode().put("type", "context");
    block.putArray("elements").addObject().put("type", "mrkdwn").put("text", mrkdwn);
    return block;
  }

  /** {@code 1h 5m}, {@code 4m 12s} or {@code 12s}. */
  static String elapsed(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s >= 3600) {
      return s / 3600 + "h " + s % 3600 / 60 + "m";
    }
    if (s >= 60) {
      return s / 60 + "m " + s % 60 + "s";
    }
    return s + "s";
  }

  private static String clip(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  @Override
  public String toString() {
    return "slack " + SafeUrls.withoutPath(URI.create(webhookUrl.value()));
  }
}
