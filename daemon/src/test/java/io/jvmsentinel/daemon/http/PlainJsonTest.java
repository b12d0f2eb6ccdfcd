package io.jvmsentinel.daemon.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probes' writer gives the mapper's bytes, and leaves to the mapper what it cannot write. */
class PlainJsonTest {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .build();

  @Test
  void writesWhatTheMapperWrites() throws Exception {
    Map<String, Object> down = new LinkedHashMap<>();
    down.put("target", "orders-\u202E\"1\"\\\n\t\u0001é😀\u2028");
    down.put("address", "service:jmx:rmi:///jndi/rmi://127.0.0.1:9010/jmxrmi");
    down.put("since", Instant.parse("2026-11-26T05:00:00Z").toString());
    down.put("error", null);
    down.put("lag", 1.5);
    down.put("nan", Double.NaN);
    down.put("big", Long.MAX_VALUE);
    down.put("up", false);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "NOT_READY");
    body.put("targets", 2);
    body.put("down", List.of(down, Map.of()));
    body.put("nested", new ArrayList<>(Arrays.asList(null, List.of(), "x")));

    for (Object value : List.of(body, Map.of("status", "UP"), List.of(), "text")) {
      assertThat(PlainJson.writes(value)).isTrue();
      assertThat(new String(PlainJson.bytes(value), StandardCharsets.UTF_8))
          .isEqualTo(new String(MAPPER.writeValueAsBytes(value), StandardCharsets.UTF_8));
    }
  }

  @Test
  void leavesOtherValuesToTheMapper() {
    assertThat(PlainJson.writes(Map.of("at", Instant.EPOCH))).isFalse();
    assertThat(PlainJson.writes(List.of(Map.of(1, "numeric key")))).isFalse();
    assertThat(PlainJson.writes(Map.of("x", 1.5f))).isFalse();
    assertThat(PlainJson.writes(Map.of("record", new Point(1, 2)))).isFalse();
  }

  @Test
  void theResponseIsTheSameEitherWay() throws Exception {
    Map<String, Object> plain = Map.of("status", "UP");
    assertThat(HttpEndpoint.Response.json(200, plain).body())
        .isEqualTo(MAPPER.writeValueAsBytes(plain));
    Map<String, Object> typed = Map.of("at", Instant.parse("2026-11-26T05:00:00Z"));
    assertThat(new String(HttpEndpoint.Response.json(200, typed).body(), StandardCharsets.UTF_8))
        .isEqualTo("{\"at\":\"2026-11-26T05:00:00Z\"}");
  }

  private record Point(int x, int y) {}
}
