package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.text.SafeText;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * Attribute values of one MBean, read in a single {@code getAttributes} round trip (seed incident
 * 5: per-attribute JMX reads showed up in a target's CPU profile). Attributes the MBean lacks are
 * simply absent.
 */
public final class Attributes {
  private final Map<String, Object> values;

  private Attributes(Map<String, Object> values) {
    this.values = values;
  }

  public static Attributes read(MBeanServerConnection mbeans, ObjectName name, String... attributes)
      throws IOException, JMException {
    AttributeList list = mbeans.getAttributes(name, attributes);
    Map<String, Object> values = new HashMap<>();
    for (Attribute attribute : list.asList()) {
      values.put(attribute.getName(), attribute.getValue());
    }
    return new Attributes(values);
  }

  public static Attributes of(Map<String, Object> values) {
    return new Attributes(Map.copyOf(values));
  }

  public Object get(String name) {
    return values.get(name);
  }

  /** A numeric attribute as a double, NaN when absent or not a number. */
  public double number(String name) {
    return values.get(name) instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /**
   * A text attribute (or any value's text), {@code fallback} when absent; the target's text, so cut
   * to {@link SafeText#MAX_NAME} and made {@linkplain SafeText safe}, the fallback too.
   */
  public String string(String name, String fallback) {
    Object value = values.get(name);
    return SafeText.name(value == null ? fallback : value.toString());
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }
}
