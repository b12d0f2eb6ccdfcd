package io.jvmsentinel.daemon.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EvidenceOrderTest {
  @Test
  void theNamedKeysLeadInTheirOrderAndTheRestKeepTheirsWithNullsAndNothingAdded() {
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("rate", 212.0);
    evidence.put("baseline", null);
    evidence.put("window", "10s");
    evidence.put("sites", "Worker.spawn");
    evidence.put("cause", "JDK-8246039");

    Map<String, Object> ordered = EvidenceOrder.causeFirst(evidence, "sites", "cause", "notThere");

    assertThat(ordered.keySet()).containsExactly("sites", "cause", "rate", "baseline", "window");
    assertThat(ordered).containsEntry("baseline", null).containsEntry("sites", "Worker.spawn");
  }
}
