package io.jvmsentinel.daemon.it.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One alert the daemon raised on a target, as its webhook notifications told it: when it started
 * firing, what its summary named, and when (if) it resolved.
 */
public record Raised(
    String rule,
    String target,
    Instant startedAt,
    String summary,
    String knownCause,
    Optional<Instant> resolvedAt) {

  /** Pairs every firing notification with the resolved notification of the same dedup key. */
  public static List<Raised> fromWebhook(List<JsonNode> notifications) {
    return notifications.stream()
        .filter(n -> n.path("status").asText().equals("firing"))
        .map(
            firing ->
                new Raised(
                    firing.path("rule").asText(),
                    firing.path("target").asText(),
                    Instant.parse(firing.path("startedAt").asText()),
                    firing.path("summary").asText(),
                    firing.path("evidence").path("knownCause").asText(""),
                    notifications.stream()
                        .filter(n -> n.path("status").asText().equals("resolved"))
                        .filter(n -> n.path("dedupKey").equals(firing.path("dedupKey")))
                        .filter(
                            n -> !Instant.parse(n.path("at").asText()).isBefore(startedAt(firing)))
                        .map(n -> Instant.parse(n.path("at").asText()))
                        .findFirst()))
        .toList();
  }

  private static Instant startedAt(JsonNode firing) {
    return Instant.parse(firing.path("startedAt").asText());
  }
}
