package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
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
    assertThat(poller.commandMissing()).as("asked again next poll: it may be registered").isFalse();
  }

  @Test
  void aJdk8TargetLacksTheCommandSaysSoOnceAndIsNotAskedAgainOnThatConnection() throws Exception {
    poller.bindTo(registry);
    FakeDiagnosticCommand jdk8 = new FakeDiagnosticCommand(Map.of("threadPrint", "..."));
    MBeanServer target = jdk8.target();

    assertThatThrownBy(() -> poller.poll(target))
        .isInstanceOf(ReflectionException.class)
        .hasRootCauseMessage(
            "the target has no DiagnosticCommand compilerCodecache (jcmd Compiler.codecache,"
                + " JDK 9+): JIT compilation state unknown");
    poller.poll(target);
    poller.poll(target);

    assertThat(jdk8.calls()).as("one remote call per connection").isEqualTo(1);
    assertThat(poller.commandMissing()).isTrue();
    assertThat(gauge()).as("unknown, not 'disabled'").isNaN();
    assertThat(counter("jvm.jit.compiler.stops")).isZero();
    assertThat(poller.state()).isNull();

    poller.disconnected();
    assertThatThrownBy(() -> poller.poll(target)).isInstanceOf(ReflectionException.class);
    assertThat(jdk8.calls()).as("a new connection may be a newer JDK: asked again").isEqualTo(2);
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

  /** A target whose DiagnosticCommand answers {@code compilerCodecache} with {@code text}. */
  private static MBeanServer fakeTarget(String text) throws JMException {
    return new FakeDiagnosticCommand(Map.of("compilerCodecache", text)).target();
  }
}
