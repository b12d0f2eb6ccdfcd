package io.jvmsentinel.daemon.alert.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jvmsentinel.daemon.alert.AlertNotification;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The notification as JSON, shared by the log line and the webhook body. Times are ISO-8601 UTC,
 * status and severity lower case; evidence keys are sorted so equal notifications log equal lines.
 */
public final class NotificationJson {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private NotificationJson() {}

  /** The fields of the log line. */
  static ObjectNode of(AlertNotification n) {
    ObjectNode json = NODES.objectNode();
    json.put("status", status(n));
    json.put("rule", n.ruleId());
    json.put("target", n.target());
    ObjectNode tags = json.putObject("targetTags");
    n.targetTags().forEach(tags::put);
    json.put("key", n.key());
    json.put("severity", n.severity().tag());
    json.put("summary", n.summary());
    json.put("dedupKey", n.dedupKey());
    json.put("startedAt", n.startedAt().toString());
    json.put("at", n.at().toString());
    json.put("runbook", n.runbook());
    json.set("evidence", evidence(n.evidence()));
    json.put("snapshot", n.snapshot().orElse(null));
    n.snapshotUnavailable().ifPresent(why -> json.put("snapshotUnavailable", why));
    n.page().ifPresent(url -> json.put("page", url));
    return json;
  }

  /**
   * The log line's fields plus explanation and action: a webhook receiver has nothing else (nor has
   * the status page's list of recent alerts).
   */
  public static ObjectNode full(AlertNotification n) {
    ObjectNode json = of(n);
    json.put("explanation", n.explanation());
    json.put("action", n.action());
    return json;
  }

  static String status(AlertNotification n) {
    return n.status().name().toLowerCase(Locale.ROOT);
  }

  static ObjectNode evidence(Map<String, Object> evidence) {
    ObjectNode json = NODES.objectNode();
    new TreeMap<>(evidence).forEach((k, v) -> json.set(k, value(v)));
    return json;
  }

  // By hand rather than valueToTree: an unexpected type becomes its text instead of an exception.
  public static JsonNode value(Object v) {
    if (v == null) {
      return NODES.nullNode();
    }
    if (v instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (v instanceof Number number) {
      return MAPPER.valueToTree(number);
    }
    if (v instanceof Map<?, ?> map) {
      ObjectNode json = NODES.objectNode();
      new TreeMap<>(stringKeys(map)).forEach((k, e) -> json.set(k, value(e)));
      return json;
    }
    if (v instanceof Collection<?> list) {
      ArrayNode json = NODES.arrayNode();
      list.forEach(e -> json.add(value(e)));
      return json;
    }
    return NODES.textNode(String.valueOf(v));
  }

  private static Map<String, Object> stringKeys(Map<?, ?> map) {
    Map<String, Object> out = new TreeMap<>();
    map.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }
}
