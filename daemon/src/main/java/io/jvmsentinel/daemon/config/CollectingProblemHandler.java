package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Records what Jackson cannot map (unknown keys, a list where a map belongs, ...) and skips the
 * value, instead of failing at the first one: the operator gets every problem in one run.
 */
final class CollectingProblemHandler extends DeserializationProblemHandler {
  private final YamlReporter reporter;
  private final JsonParser source;

  /**
   * @param source the parser reading the file, to know where Jackson is when it hands over buffered
   *     keys
   */
  CollectingProblemHandler(YamlReporter reporter, JsonParser source) {
    this.reporter = reporter;
    this.source = source;
  }

  @Override
  public boolean handleUnknownProperty(
      DeserializationContext ctxt,
      JsonParser p,
      JsonDeserializer<?> deserializer,
      Object beanOrClass,
      String propertyName)
      throws IOException {
    // For records Jackson buffers unknown keys and replays them after the record is built, from a
    // buffer that has lost locations and whose context is unreliable. The real parser then
    // points at the end of that record: its context is where the record sits in the file.
    String path =
        p == source
            ? YamlReporter.valuePath(p)
            : YamlReporter.join(YamlReporter.pathOf(source.getParsingContext()), propertyName);
    reporter.reportAt(
        reporter.keyLocation(path),
        path,
        "unknown key '" + path + "'; allowed keys: " + allowedKeys(beanOrClass, deserializer));
    p.skipChildren();
    return true;
  }

  @Override
  public Object handleUnexpectedToken(
      DeserializationContext ctxt, JavaType target, JsonToken t, JsonParser p, String failureMsg)
      throws IOException {
    return skip(p, target.getRawClass());
  }

  @Override
  public Object handleMissingInstantiator(
      DeserializationContext ctxt,
      Class<?> instClass,
      ValueInstantiator valueInsta,
      JsonParser p,
      String msg)
      throws IOException {
    return skip(p, instClass);
  }

  @Override
  public Object handleWeirdStringValue(
      DeserializationContext ctxt, Class<?> target, String value, String failureMsg)
      throws IOException {
    return skip(ctxt.getParser(), target);
  }

  @Override
  public Object handleWeirdNumberValue(
      DeserializationContext ctxt, Class<?> target, Number value, String failureMsg)
      throws IOException {
    return skip(ctxt.getParser(), target);
  }

  private Object skip(JsonParser p, Class<?> target) throws IOException {
    reporter.reportValue(p, "expected " + describe(target) + ", got " + YamlReporter.describe(p));
    p.skipChildren();
    return null; // read on; the problem is already recorded
  }

  private static String describe(Class<?> target) {
    if (Collection.class.isAssignableFrom(target)) {
      return "a list";
    }
    if (Map.class.isAssignableFrom(target) || target.isRecord()) {
      return "a map";
    }
    return "a " + target.getSimpleName();
  }

  private static String allowedKeys(Object beanOrClass, JsonDeserializer<?> deserializer) {
    Class<?> type = beanOrClass instanceof Class<?> c ? c : beanOrClass.getClass();
    List<String> keys = new ArrayList<>();
    if (type.isRecord()) {
      // Declaration order, which is the order of the documentation.
      Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).forEach(keys::add);
    } else {
      deserializer.getKnownPropertyNames().forEach(k -> keys.add(String.valueOf(k)));
    }
    return keys.stream().collect(Collectors.joining(", "));
  }
}
