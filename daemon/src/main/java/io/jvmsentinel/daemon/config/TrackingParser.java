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
 *   <li>it remembers where the last key started, because Jackson reports an unknown key when the
 *       parser already points at its value, and the operator wants the key's line and column;
 *   <li>it reports duplicate keys. We do not use {@code STRICT_DUPLICATE_DETECTION}: that throws at
 *       the first duplicate and stops reading, and we want every problem of the file in one pass.
 * </ul>
 */
final class TrackingParser extends JsonParserDelegate {
  private final YamlReporter reporter;
  // Jackson reuses context objects per nesting level; each START_OBJECT resets its set.
  private final Map<JsonStreamContext, Set<String>> keysByMap = new IdentityHashMap<>();
  private JsonLocation lastKeyLocation = JsonLocation.NA;

  TrackingParser(JsonParser yaml, YamlReporter reporter) {
    super(yaml);
    this.reporter = reporter;
  }

  /** Where the most recent key started. */
  JsonLocation lastKeyLocation() {
    return lastKeyLocation;
  }

  @Override
  public JsonToken nextToken() throws IOException {
    JsonToken t = super.nextToken();
    if (t == JsonToken.START_OBJECT) {
      keysByMap.put(getParsingContext(), new HashSet<>());
    } else if (t == JsonToken.FIELD_NAME) {
      lastKeyLocation = currentTokenLocation();
      JsonStreamContext map = getParsingContext();
      if (!keysByMap.computeIfAbsent(map, c -> new HashSet<>()).add(currentName())) {
        String path = YamlReporter.pathOf(map);
        reporter.reportAt(lastKeyLocation, path, "duplicate key '" + path + "'");
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
