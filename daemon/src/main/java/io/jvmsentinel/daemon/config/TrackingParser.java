package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Wraps the YAML parser to see every key as it passes:
 *
 * <ul>
 *   <li>it tells the reporter where each key was written, because Jackson reports unknown keys of a
 *       record only after reading the whole record, from a buffer without locations;
 *   <li>it reports duplicate keys. We do not use {@code STRICT_DUPLICATE_DETECTION}: that throws at
 *       the first duplicate and stops reading, and we want every problem of the file in one pass.
 * </ul>
 */
final class TrackingParser extends JsonParserDelegate {
  private final YamlReporter reporter;
  // Jackson reuses context objects per nesting level; each START_OBJECT resets its set.
  private final Map<JsonStreamContext, Set<String>> keysByMap = new IdentityHashMap<>();

  TrackingParser(JsonParser yaml, YamlReporter reporter) {
    super(yaml);
    this.reporter = reporter;
  }

  @Override
  public JsonToken nextToken() throws IOException {
    JsonToken t = super.nextToken();
    if (t == JsonToken.START_OBJECT) {
      keysByMap.put(getParsingContext(), new HashSet<>());
    } else if (t == JsonToken.FIELD_NAME) {
      JsonLocation at = currentTokenLocation();
      JsonStreamContext map = getParsingContext();
      String path = YamlReporter.pathOf(map);
      reporter.keySeen(path, at);
      if (!keysByMap.computeIfAbsent(map, c -> new HashSet<>()).add(currentName())) {
        reporter.reportAt(at, path, "duplicate key '" + path + "'");
      }
    }
    return t;
  }

  @Override
  public JsonToken nextValue() throws IOException {
    // The delegate's own nextValue() would bypass nextToken() above.
    JsonToken t = nextToken();
    return t == JsonToken.FIELD_NAME ? nextToken() : t;
  }
}
