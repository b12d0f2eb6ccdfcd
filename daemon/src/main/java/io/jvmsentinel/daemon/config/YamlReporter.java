package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a problem met while reading the YAML into {@code file:line:col: 'key.path': reason}. Shared
 * by the problem handler, the scalar deserializers and the duplicate-key check.
 */
final class YamlReporter {
  private final String file;
  private final Problems problems;
  private final Map<String, JsonLocation> keyLocations = new HashMap<>();
  private final List<Found> found = new ArrayList<>();

  YamlReporter(String file, Problems problems) {
    this.file = file;
    this.problems = problems;
  }

  /** Remembers where the key at {@code path} was written (the first time). */
  void keySeen(String path, JsonLocation at) {
    keyLocations.putIfAbsent(path, at);
  }

  JsonLocation keyLocation(String path) {
    return keyLocations.getOrDefault(path, JsonLocation.NA);
  }

  /** A problem with the value the parser points at; the message gets the key path in front. */
  void reportValue(JsonParser p, String reason) {
    String path = valuePath(p);
    reportAt(p.currentTokenLocation(), path, path.isEmpty() ? reason : "'" + path + "': " + reason);
  }

  /** A problem at a given place; {@code message} is complete except for {@code file:line:col}. */
  void reportAt(JsonLocation at, String path, String message) {
    found.add(new Found(at.getLineNr(), at.getColumnNr(), path, where(file, at) + message));
  }

  /**
   * Hands the problems over in the order of the file. Jackson meets them out of order: it reports a
   * record's unknown keys only after the rest of the record.
   */
  void flush() {
    found.stream()
        .sorted(Comparator.comparingInt(Found::line).thenComparingInt(Found::column))
        .forEach(f -> problems.addUnreadable(f.path(), f.message()));
    found.clear();
  }

  private record Found(int line, int column, String path, String message) {}

  static String where(String file, JsonLocation at) {
    // Jackson has no location for some mapping errors (found by ConfigFuzzTest: a key repeated
    // after a very long value).
    return at != null && at.getLineNr() > 0
        ? file + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": "
        : file + ": ";
  }

  /** The key path of the value the parser points at, e.g. {@code targets[0].pollInterval}. */
  static String valuePath(JsonParser p) {
    JsonStreamContext ctx = p.getParsingContext();
    if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
      ctx = ctx.getParent(); // a map or list value has opened its own context already
    }
    return pathOf(ctx);
  }

  /** The path of the current entry of {@code ctx} (its current key or index). */
  static String pathOf(JsonStreamContext ctx) {
    StringBuilder path = new StringBuilder();
    for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
      if (c.inArray()) {
        path.insert(0, "[" + Math.max(c.getCurrentIndex(), 0) + "]");
      } else if (c.getCurrentName() != null) {
        path.insert(0, "." + c.getCurrentName());
      }
    }
    return path.length() > 0 && path.charAt(0) == '.' ? path.substring(1) : path.toString();
  }

  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** What the parser points at, in words: {@code "abc"}, {@code 12}, {@code a list}, ... */
  static String describe(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    if (t == null) {
      return "nothing";
    }
    return switch (t) {
      case START_OBJECT -> "a map";
      case START_ARRAY -> "a list";
      case VALUE_STRING -> "\"" + p.getText() + "\"";
      case VALUE_NULL -> "nothing";
      default -> p.getText();
    };
  }
}
