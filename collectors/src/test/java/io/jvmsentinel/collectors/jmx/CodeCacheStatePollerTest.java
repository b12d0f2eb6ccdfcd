package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.DynamicMBean;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ReflectionException;
import org.junit.jupiter.api.Test;

class CodeCacheStatePollerTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final CodeCacheStatePoller poller = new CodeCacheStatePoller(Tags.of("target", "t1"));

  @Test
  void exportsTheStatusAndCountersOfAFullJdk25Cache() throws Exception {
    poller.bindTo(registry);

    poller.poll(fakeTarget(CodeCacheStateParserTest.text("jdk25-full-disabled")));

    assertThat(gauge()).isZero();
    assertThat(counter("jvm.jit.compiler.stops")).isEqualTo(1);
    assertThat(counter("jvm.jit.compiler.restarts")).isZero();
    assertThat(poller.state().fullCount()).isEqualTo(1);
  }

  @Test
  void readsNaNWhileDisconnectedButCountersKeepTheirValues() throws Exception {
    poller.bindTo(registry);
    poller.poll(fakeTarget(CodeCacheStateParserTest.text("jdk21-full-disabled")));

    poller.disconnected();

    assertThat(gauge()).isNaN();
    assertThat(counter("jvm.jit.compiler.stops")).isEqualTo(1);
    assertThat(poller.state()).isNull();
  }

  @Test
  void aTargetWithoutTheDiagnosticCommandFailsWithAJmException() {
    poller.bindTo(registry);

    assertThatThrownBy(() -> poller.poll(MBeanServerFactory.newMBeanServer()))
        .isInstanceOf(InstanceNotFoundException.class);
    assertThat(gauge()).isNaN();
  }

  @Test
  void readsTheRealCommandOfThisJvm() throws Exception {
    poller.bindTo(registry);

    poller.poll(ManagementFactory.getPlatformMBeanServer());

    assertThat(gauge()).isEqualTo(1);
    assertThat(poller.state().nmethods()).isPositive();
  }

  private double gauge() {
    return registry.get("jvm.jit.compilation.enabled").tag("target", "t1").gauge().value();
  }

  private double counter(String name) {
    return registry.get(name).tag("target", "t1").functionCounter().count();
  }

  /**
   * An MBean server whose DiagnosticCommand answers {@code compilerCodecache} with {@code text}.
   */
  private static MBeanServer fakeTarget(String text) throws JMException {
    MBeanServer server = MBeanServerFactory.newMBeanServer();
    server.registerMBean(new DiagnosticCommand(text), ObjectNames.DIAGNOSTIC_COMMAND);
    return server;
  }

  private record DiagnosticCommand(String text) implements DynamicMBean {
    @Override
    public Object invoke(String action, Object[] params, String[] signature)
        throws ReflectionException {
      if (!action.equals("compilerCodecache")
          || signature.length != 1
          || !signature[0].equals(String[].class.getName())
          || !(params[0] instanceof String[])) {
        throw new ReflectionException(new NoSuchMethodException(action));
      }
      return text;
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
      return new MBeanInfo(DiagnosticCommand.class.getName(), "fake", null, null, null, null);
    }
  }
}
