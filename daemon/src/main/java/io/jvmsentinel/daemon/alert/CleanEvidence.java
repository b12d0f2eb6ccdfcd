package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.collectors.text.SafeText;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A notification's evidence and tags with every text in them ({@link SafeText}: keys, values, the
 * texts inside lists and maps) cleaned, in their order, unmodifiable. Numbers, booleans and nulls
 * are kept; any other value becomes its cleaned text, which is what the sinks would show of it.
 */
final class CleanEvidence {
  private CleanEvidence() {}

  static Map<String, Object> of(Map<String, ?> evidence) {
    Map<String, Object> clean = new LinkedHashMap<>();
    evidence.forEach((k, v) -> clean.put(SafeText.of(k), value(v)));
    return Collections.unmodifiableMap(clean);
  }

  static Map<String, String> tags(Map<String, String> tags) {
    Map<String, String> clean = new LinkedHashMap<>();
    tags.forEach((k, v) -> clean.put(SafeText.of(k), v == null ? null : SafeText.of(v)));
    return Collections.unmodifiableMap(clean);
  }

  private static Object value(Object v) {
    if (v == null || v instanceof Number || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Map<?, ?> map) {
      Map<String, Object> clean = new LinkedHashMap<>();
      map.forEach((k, inner) -> clean.put(SafeText.of(String.valueOf(k)), value(inner)));
      return Collections.unmodifiableMap(clean);
    }
    if (v instanceof Collection<?> list) {
      ArrayList<Object> clean = new ArrayList<>(list.size());
      list.forEach(inner -> clean.add(value(inner)));
      return Collections.unmodifiableList(clean);
    }
    return SafeText.of(String.valueOf(v));
  }
}
