package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jvmsentinel.daemon.support.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import javax.management.StandardMBean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A target that is not the HotSpot JVM the pollers expect: most platform MBeans missing, a memory
 * pool under another vendor's name, no DiagnosticCommand, no FlightRecorder. The session still
 * connects and says up, exports what exists, counts each poller's problem by reason and logs it
 * once per connection.
 */
class SurprisingTargetTest {
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger sessionLog = (Logger) LoggerFactory.getLogger(TargetSession.class);
  private TargetSession session;

  /** The attributes of a memory pool the poller reads. */
  public interface PoolMXBean {
    String getName();

    MemoryType getType();

    MemoryUsage getUsage();

    MemoryUsage getPeakUsage();
  }

  /** An OpenJ9-style code cache pool: 4 MiB used of 16 MiB. */
  public record Pool(String name) implements PoolMXBean {
    @Override
    public String getName() {
      return name;
    }

    @Override
    public MemoryType getType() {
      return MemoryType.NON_HEAP;
    }

    @Override
    public MemoryUsage getUsage() {
      return new MemoryUsage(0, 4 << 20, 8 << 20, 16 << 20);
    }

    @Override
    public MemoryUsage getPeakUsage() {
      return getUsage();
    }
  }

  @AfterEach
  void close() {
    if (session != null) {
      session.close();
    }
    sessionLog.detachAppender(logged);
  }

  @Test
  void aJvmWithoutMostPlatformMBeansIsWatchedWithWhatItHasAndEachProblemIsLoggedOnce()
      throws Exception {
    MBeanServer target = MBeanServerFactory.newMBeanServer();
    register(
        target,
        ManagementFactory.getRuntimeMXBean(),
        RuntimeMXBean.class,
        "java.lang:type=Runtime");
    register(
        target,
        ManagementFactory.getThreadMXBean(),
        ThreadMXBean.class,
        "java.lang:type=Threading");
    register(
        target,
        new Pool("JIT code cache"),
        PoolMXBean.class,
        "java.lang:type=MemoryPool,name=JIT code cache");
    logged.start();
    sessionLog.addAppender(logged);

    session =
        new TargetSession(
            "odd",
            new InProcessConnector(target),
            Duration.ofMillis(100),
            Duration.ofSeconds(2),
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(100), () -> 0.5),
            registry,
            Tags.of("target", "odd"),
            Clock.systemUTC(),
            new PollWatchdog());
    session.start();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> {
              assertThat(gauge("jvm.sentinel.target.up")).isEqualTo(1);
              // Several polls have run: each counts its problem every time.
              assertThat(errors("classes", "missing")).isGreaterThanOrEqualTo(5);
            });
    assertThat(gauge("jvm.threads.live")).isPositive();
    assertThat(registry.get("jvm.memory.used").tags("id", "JIT code cache").gauge().value())
        .isEqualTo(4 << 20);
    assertThat(errors("codecache-state", "missing")).isPositive();
    assertThat(errors("threads", "missing")).isZero();
    assertThat(session.status().up()).isTrue();

    long classWarnings =
        logged.list.stream()
            .filter(e -> e.getFormattedMessage().contains("poller 'classes'"))
            .count();
    assertThat(classWarnings).as("logged once per connection, counted every time").isEqualTo(1);
    assertThat(logged.list)
        .anySatisfy(e -> assertThat(e.getFormattedMessage()).contains("(missing;"));
  }

  /**
   * A JDK 8 target has the DiagnosticCommand MBean but no {@code compilerCodecache} (jcmd {@code
   * Compiler.codecache} came in JDK 9): one {@code missing} problem per connection, logged once,
   * the gauge unknown, and no further calls for a command that will never be there.
   */
  @Test
  void aJdk8TargetWithoutCompilerCodecacheCountsItOncePerConnection() throws Exception {
    MBeanServer target = MBeanServerFactory.newMBeanServer();
    register(
        target,
        ManagementFactory.getThreadMXBean(),
        ThreadMXBean.class,
        "java.lang:type=Threading");
    AtomicInteger calls = new AtomicInteger();
    target.registerMBean(new Jdk8DiagnosticCommand(calls), new ObjectName(DIAGNOSTIC_COMMAND));
    logged.start();
    sessionLog.addAppender(logged);

    session =
        new TargetSession(
            "jdk8",
            new InProcessConnector(target),
            Duration.ofMillis(100),
            Duration.ofSeconds(2),
            new Backoff(Duration.ofMillis(100), Duration.ofMillis(100), () -> 0.5),
            registry,
            Tags.of("target", "jdk8"),
            Clock.systemUTC(),
            new PollWatchdog());
    session.start();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(errors("classes", "missing")).isGreaterThanOrEqualTo(5));
    assertThat(errors("codecache-state", "missing")).isEqualTo(1);
    assertThat(errors("codecache-state", "error")).isZero();
    assertThat(calls).hasValue(1);
    assertThat(registry.get("jvm.jit.compilation.enabled").gauge().value()).isNaN();
    assertThat(logged.list)
        .filteredOn(e -> e.getFormattedMessage().contains("poller 'codecache-state'"))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.getFormattedMessage())
                    .contains("(missing;", "no DiagnosticCommand compilerCodecache", "JDK 9+"));
  }

  @Test
  void problemsAreClassifiedByWhatTheTargetLacksOrSent() {
    assertThat(PollProblem.classify(new InstanceNotFoundException("x")))
        .isEqualTo(PollProblem.MISSING);
    assertThat(PollProblem.classify(new AttributeNotFoundException("x")))
        .isEqualTo(PollProblem.MISSING);
    assertThat(PollProblem.classify(new ReflectionException(new Exception("x"))))
        .isEqualTo(PollProblem.ERROR);
    assertThat(
            PollProblem.classify(
                new ReflectionException(new NoSuchMethodException("compilerCodecache"))))
        .as("an operation the target lacks")
        .isEqualTo(PollProblem.MISSING);
    assertThat(PollProblem.classify(new ClassCastException("x"))).isEqualTo(PollProblem.UNEXPECTED);
    assertThat(PollProblem.classify(new NumberFormatException("x")))
        .isEqualTo(PollProblem.UNEXPECTED);
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }

  private double errors(String poller, String reason) {
    return registry
        .get("jvm.sentinel.poll.errors")
        .tags(Tags.of("poller", poller, "reason", reason))
        .counter()
        .count();
  }

  private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

  /** JDK 8's DiagnosticCommandImpl.invoke for an operation it lacks. */
  private record Jdk8DiagnosticCommand(AtomicInteger calls) implements DynamicMBean {
    @Override
    public Object invoke(String action, Object[] params, String[] signature)
        throws ReflectionException {
      calls.incrementAndGet();
      throw new ReflectionException(new NoSuchMethodException(action));
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
      throw new AttributeNotFoundException(attribute);
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

  private static <T> void register(MBeanServer server, T impl, Class<T> type, String name)
      throws JMException {
    server.registerMBean(new StandardMBean(impl, type, true), new ObjectName(name));
  }
}
