package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads one scalar value, or records why it cannot and returns null so reading goes on.
 *
 * <p>We replace Jackson's own deserializers for the few leaf types of the configuration because
 * theirs either coerce (a float becomes a truncated long) or stop at the first error, and their
 * messages name Java types where an operator needs "expected an integer".
 */
final class ScalarDeserializer<T> extends StdDeserializer<T> {
  private static final long serialVersionUID = 1L;

  private final String expected;
  private final transient Predicate<JsonToken> accepts;
  private final transient Function<String, T> parse;

  private ScalarDeserializer(
      Class<T> type, String expected, Predicate<JsonToken> accepts, Function<String, T> parse) {
    super(type);
    this.expected = expected;
    this.accepts = accepts;
    this.parse = parse;
  }

  /** YAML has no quotes requirement: {@code username: 1234} is the text "1234". */
  static ScalarDeserializer<String> text() {
    return new ScalarDeserializer<>(String.class, "text", JsonToken::isScalarValue, s -> s);
  }

  static ScalarDeserializer<Long> integer() {
    return new ScalarDeserializer<>(
        Long.class, "an integer", t -> t == JsonToken.VALUE_NUMBER_INT, ScalarDeserializer::toLong);
  }

  static ScalarDeserializer<Duration> duration() {
    return parsed(Duration.class, "a duration such as 10s", Durations::parse);
  }

  static ScalarDeserializer<HostPort> hostPort() {
    return parsed(HostPort.class, "host:port", HostPort::parse);
  }

  static ScalarDeserializer<JmxAddress> jmxAddress() {
    return parsed(JmxAddress.class, "host:port or a service:jmx: URL", JmxAddress::parse);
  }

  static ScalarDeserializer<DogStatsdAddress> dogStatsdAddress() {
    return parsed(
        DogStatsdAddress.class, "udp://host:port or unix:///path", DogStatsdAddress::parse);
  }

  static ScalarDeserializer<Pattern> pattern() {
    return parsed(Pattern.class, "a regular expression", ScalarDeserializer::toPattern);
  }

  private static Pattern toPattern(String text) {
    try {
      return Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "not a regular expression: "
              + e.getDescription()
              + " at index "
              + e.getIndex()
              + " of \""
              + text
              + "\"",
          e);
    }
  }

  // Any scalar: "pollInterval: 10" then fails in the parser with the accepted forms.
  private static <T> ScalarDeserializer<T> parsed(
      Class<T> type, String expected, Function<String, T> parse) {
    return new ScalarDeserializer<>(type, expected, JsonToken::isScalarValue, parse);
  }

  @Override
  public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    YamlReporter reporter = (YamlReporter) ctxt.getAttribute(YamlReporter.class);
    if (!accepts.test(p.currentToken())) {
      reporter.reportValue(p, "expected " + expected + ", got " + YamlReporter.describe(p));
      p.skipChildren();
      return null;
    }
    try {
      return parse.apply(p.getText());
    } catch (IllegalArgumentException e) {
      reporter.reportValue(p, e.getMessage());
      return null;
    }
  }

  private static Long toLong(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("integer " + text + " is out of range");
    }
  }
}
