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
 */
public final class SlackNotifier implements Notifier {
  static final int EVIDENCE_LINES = 5;
  // Slack rejects longer header texts and section texts.
  private static final int HEADER_MAX = 150;
  private static final int SECTION_MAX = 3000;
  private static final int VALUE_MAX = 200;
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
    // become a link or an @channel mention (class names may hold '<', '>' and '|').
    message.put("text", clip(emoji + " [" + label + "] " + escape(n.summary()), SECTION_MAX));
    ArrayNode blocks = message.putArray("blocks");
    blocks.add(header(clip(label + ": " + n.summary(), HEADER_MAX)));
    if (resolved) {
      blocks.add(
          section(
              "Resolved at "
                  + n.at()
                  + " after "
                  + elapsed(Duration.between(n.startedAt(), n.at()))
                  + " (firing since "
                  + n.startedAt()
                  + ")."));
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
        blocks.add(section(escape(n.explanation())));
      }
      if (!n.action().isEmpty()) {
        blocks.add(section("*What to do:* " + escape(n.action())));
      }
      if (!n.evidence().isEmpty()) {
        blocks.add(section("*Evidence*\n" + String.join("\n", evidenceLines(n.evidence()))));
      }
    }
    blocks.add(context(clip(facts(n), SECTION_MAX)));
    return message;
  }

  /**
   * The first {@value #EVIDENCE_LINES} entries in the rule's order (the cause first), as {@code •
   * `key`: value}.
   */
  static List<String> evidenceLines(Map<String, Object> evidence) {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, Object> e : evidence.entrySet()) {
      if (lines.size() == EVIDENCE_LINES) {
        lines.add("… and " + (evidence.size() - EVIDENCE_LINES) + " more");
        break;
      }
      Object v = e.getValue();
      String text =
          v instanceof String s ? s : String.valueOf(NotificationJson.value(v).toString());
      lines.add("• `" + escape(e.getKey()) + "`: " + escape(clip(text, VALUE_MAX)));
    }
    return lines;
  }

  private static String facts(AlertNotification n) {
    StringBuilder text = new StringBuilder();
    text.append("target `").append(escape(n.target())).append('`');
    n.targetTags().forEach((tag, value) -> text.append(" · ").append(escape(tag + "=" + value)));
    if (!n.key().isEmpty()) {
      text.append(" · ").append(escape(n.key()));
    }
    text.append(" · rule `").append(escape(n.ruleId())).append('`');
    text.append(" · started ").append(n.startedAt());
    if (!n.runbook().isEmpty()) {
      text.append(" · ");
      // Slack links only absolute URLs; a repository path is shown as code.
      if (n.runbook().startsWith("https://") || n.runbook().startsWith("http://")) {
        text.append('<').append(n.runbook()).append("|Runbook>");
      } else {
        text.append("runbook `").append(escape(n.runbook())).append('`');
      }
    }
    n.snapshot().ifPresent(s -> text.append(" · snapshot `").append(escape(s)).append('`'));
    n.snapshotUnavailable()
        .ifPresent(why -> text.append(" · no JFR snapshot: ").append(escape(why)));
    // The URL is built by the daemon from http.externalUrl (validated) and percent-encoded names.
    n.page().ifPresent(url -> text.append(" · <").append(url).append("|Status page>"));
    return text.toString();
  }

  private static ObjectNode header(String text) {
    ObjectNode block = NODES.objectNode().put("type", "header");
    block.putObject("text").put("type", "plain_text").put("text", text);
    return block;
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

  // Slack's mrkdwn treats these three as control characters.
  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String clip(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  @Override
  public String toString() {
    return "slack " + SafeUrls.withoutPath(URI.create(webhookUrl.value()));
  }
}
