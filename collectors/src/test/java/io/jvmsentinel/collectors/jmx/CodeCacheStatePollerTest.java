package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
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
  void aJdk8TargetLacksTheCommandSaysSoOnceAndIsNotAskedAgainOnThatConnection() throws Exception {
    poller.bindTo(registry);
    Jdk8DiagnosticCommand jdk8 = new Jdk8DiagnosticCommand();
    MBeanServer target = MBeanServerFactory.newMBeanServer();
    target.registerMBean(jdk8, ObjectNames.DIAGNOSTIC_COMMAND);

    assertThatThrownBy(() -> poller.poll(target))
        .isInstanceOf(ReflectionException.class)
        .hasCauseInstanceOf(NoSuchMethodException.class);
    poller.poll(target);
    poller.poll(target);

    assertThat(jdk8.calls).as("one remote call per connection").hasValue(1);
    assertThat(poller.commandMissing()).isTrue();
    assertThat(gauge()).as("unknown, not 'disabled'").isNaN();
    assertThat(counter("jvm.jit.compiler.stops")).isZero();
    assertThat(poller.state()).isNull();

    poller.disconnected();
    assertThatThrownBy(() -> poller.poll(target)).isInstanceOf(ReflectionException.class);
    assertThat(jdk8.calls).as("a new connection may be a newer JDK: asked again").hasValue(2);
  }

  @Test
  void anotherFailureOfTheCommandIsNotTakenForAMissingCommand() throws Exception {
    poller.bindTo(registry);
    MBeanServer target = MBeanServerFactory.newMBeanServer();
    target.registerMBean(new DiagnosticCommand(null), ObjectNames.DIAGNOSTIC_COMMAND);
    target.unregisterMBean(ObjectNames.DIAGNOSTIC_COMMAND);

    assertThatThrownBy(() -> poller.poll(target)).isInstanceOf(InstanceNotFoundException.class);
    assertThat(poller.commandMissing()).isFalse();
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

  /**
   * The DiagnosticCommand MBean of a JDK 8 target: it has {@code threadPrint} and the other
   * commands of jdk8u {@code diagnosticCommand.cpp}, but no {@code compilerCodecache}; for an
   * operation it lacks, jdk8u {@code sun/management/DiagnosticCommandImpl.invoke} throws {@code new
   * ReflectionException(new NoSuchMethodException(actionName))} (a JDK 11 target was seen to answer
   * an unknown command exactly so over remote JMX).
   */
  private static final class Jdk8DiagnosticCommand implements DynamicMBean {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public Object invoke(String action, Object[] params, String[] signature)
        throws ReflectionException {
      calls.incrementAndGet();
      throw new ReflectionException(new NoSuchMethodException(action));
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
      return new MBeanInfo(getClass().getName(), "JDK 8 DiagnosticCommand", null, null, null, null);
    }
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
