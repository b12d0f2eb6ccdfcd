package io.jvmsentinel.lab;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.DynamicMBean;
import javax.management.MBeanInfo;

/**
 * An MBean of the hostile scenarios: every read and every operation gets {@link #answer}, writes
 * change nothing, and it describes itself as having no attributes (a client that reads by name does
 * not ask).
 */
abstract class AnsweringMBean implements DynamicMBean {
  /** What a read of {@code attribute} (or a call of the operation of that name) returns. */
  abstract Object answer(String attribute);

  @Override
  public Object getAttribute(String attribute) {
    return answer(attribute);
  }

  @Override
  public void setAttribute(Attribute attribute) {}

  @Override
  public AttributeList getAttributes(String[] attributes) {
    AttributeList list = new AttributeList();
    for (String attribute : attributes) {
      list.add(new Attribute(attribute, answer(attribute)));
    }
    return list;
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public Object invoke(String action, Object[] params, String[] signature) {
    return answer(action);
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    return new MBeanInfo(getClass().getName(), "hostile", null, null, null, null);
  }
}
