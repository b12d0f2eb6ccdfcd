package io.jvmsentinel.daemon.it.matrix;

import io.jvmsentinel.daemon.lab.LabEvent;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code occurrence}-th (1-based) onset line of {@code phase} in a lab's output: {@code mixed}
 * prints {@code storm} twice, once per thread storm.
 */
public record Onset(String phase, int occurrence) {

  public static Onset of(String phase) {
    return new Onset(phase, 1);
  }

  public Optional<Instant> in(List<LabEvent> events) {
    return events.stream()
        .filter(e -> e.type().equals("onset") && e.phase().orElse("").equals(phase))
        .skip(occurrence - 1L)
        .findFirst()
        .map(e -> Instant.ofEpochMilli(e.atEpochMillis()));
  }

  @Override
  public String toString() {
    return occurrence == 1 ? phase : phase + "#" + occurrence;
  }
}
