package io.jvmsentinel.daemon.alert.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NotificationJsonTest {
  @Test
  void evidenceKeepsTheRulesOrderWhileUnorderedMapsAreSortedSoPayloadsAreStable() {
    Map<String, Object> site = new LinkedHashMap<>();
    site.put("site", "RequestDispatcher.dispatch");
    site.put("count", 4000);
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("topCreatorSites", List.of(site));
    evidence.put("startsPerSecond", 212.0);
    evidence.put("vmOptions", Map.copyOf(Map.of("Xss", "1m", "CICompilerCount", "2", "A", "x")));

    assertThat(NotificationJson.evidence(evidence).toString())
        .isEqualTo(
            "{\"topCreatorSites\":[{\"site\":\"RequestDispatcher.dispatch\",\"count\":4000}],"
                + "\"startsPerSecond\":212.0,"
                + "\"vmOptions\":{\"A\":\"x\",\"CICompilerCount\":\"2\",\"Xss\":\"1m\"}}");
  }
}
