package io.jvmsentinel.collectors.jmx;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.DynamicMBean;
import javax.management.JMException;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ReflectionException;

/**
 * {@code com.sun.management:type=DiagnosticCommand} answering fixed texts, one per operation. As
 * the JDK's {@code DiagnosticCommandImpl.invoke} does (jdk8u {@code
 * sun/management/DiagnosticCommandImpl.java}; a JDK 11 target answered so over remote JMX), an
 * operation it lacks, or a call without the {@code (String[])} signature, fails with a {@link
 * ReflectionException} around a {@link NoSuchMethodException}: a JDK 8 target's MBean has {@code
 * threadPrint} but no {@code compilerCodecache}.
 */
final class FakeDiagnosticCommand implements DynamicMBean {
  private final Map<String, String> answers;
  private final AtomicInteger calls = new AtomicInteger();

  FakeDiagnosticCommand(Map<String, String> answers) {
    this.answers = Map.copyOf(answers);
  }

  /** A target with only this MBean. */
  MBeanServer target() throws JMException {
    MBeanServer server = MBeanServerFactory.newMBeanServer();
    server.registerMBean(this, ObjectNames.DIAGNOSTIC_COMMAND);
    return server;
  }

  /** Operations invoked so far, answered or not. */
  int calls() {
    return calls.get();
  }

  @Override
  public Object invoke(String action, Object[] params, String[] signature)
      throws ReflectionException {
    calls.incrementAndGet();
    String answer = answers.get(action);
    if (answer == null
        || signature == null
        || signature.length != 1
        || !String[].class.getName().equals(signature[0])
        || !(params[0] instanceof String[])) {
      throw new ReflectionException(new NoSuchMethodException(action));
    }
    return answer;
  }

  @Override
  public Object getAttribute(String attribute) {
    return null;
  }

  @Override
  public void setAttribute(Attribute attribute) {}

  @Override
  public AttributeList getAttributes(String[] attributes) {
    return new AttributeList();
  }

  @Override
  public AttributeList setAttributes(AttributeList attributes) {
    return new AttributeList();
  }

  @Override
  public MBeanInfo getMBeanInfo() {
    return new MBeanInfo(getClass().getName(), "fake DiagnosticCommand", null, null, null, null);
  }
}
