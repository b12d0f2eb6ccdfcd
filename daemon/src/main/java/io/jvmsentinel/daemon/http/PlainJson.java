package io.jvmsentinel.daemon.http;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Writes values made only of maps with text keys, lists, text, {@code int}/{@code long}/{@code
 * double} numbers, booleans and nulls with Jackson's streaming generator, the same bytes its mapper
 * writes for them. The probes ({@code /health}, {@code /ready}), which a cluster calls all day, so
 * answer without loading Jackson's databind (about 470 classes); anything else (records, instants)
 * goes to the mapper.
 */
final class PlainJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  private PlainJson() {}

  /** Whether {@link #bytes} can write {@code value}. */
  static boolean writes(Object value) {
    if (value == null
        || value instanceof String
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Double
        || value instanceof Boolean) {
      return true;
    }
    if (value instanceof List<?> list) {
      return list.stream().allMatch(PlainJson::writes);
    }
    if (value instanceof Map<?, ?> map) {
      return map.entrySet().stream()
          .allMatch(e -> e.getKey() instanceof String && writes(e.getValue()));
    }
    return false;
  }

  /** {@code value} as UTF-8 JSON; only for values {@link #writes} accepts. */
  static byte[] bytes(Object value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      write(json, value);
    }
    return out.toByteArray();
  }

  private static void write(JsonGenerator json, Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof String text) {
      json.writeString(text);
    } else if (value instanceof Integer number) {
      json.writeNumber(number);
    } else if (value instanceof Long number) {
      json.writeNumber(number);
    } else if (value instanceof Double number) {
      json.writeNumber(number);
    } else if (value instanceof Boolean flag) {
      json.writeBoolean(flag);
    } else if (value instanceof List<?> list) {
      json.writeStartArray();
      for (Object element : list) {
        write(json, element);
      }
      json.writeEndArray();
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.writeFieldName((String) entry.getKey());
        write(json, entry.getValue());
      }
      json.writeEndObject();
    } else {
      throw new IllegalArgumentException("not plain JSON: " + value.getClass().getName());
    }
  }
}
