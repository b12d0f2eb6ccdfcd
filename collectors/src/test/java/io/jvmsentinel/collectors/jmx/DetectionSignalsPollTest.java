package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.CompilerCpu;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.MBeanServer;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the fast detection poll reads from a real JVM (this one's platform MBean server), call by
 * call: only the values detection needs, one {@code getAttributes} round trip per MBean, the code
 * cache pools and never the heap pools, and no thread dump.
 */
class DetectionSignalsPollTest {
  private final MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private final MBeanServerConnection recording = recording(platform, calls);
  private final JmxPollers pollers = JmxPollers.create(Tags.of("target", "self"));
  private final CompilerThreadCpuPoller compilerCpu =
      new CompilerThreadCpuPoller(
          new CompilerCpu(Duration.ofSeconds(1)), () -> true, Clock.systemUTC());

  @BeforeEach
  void connect() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    for (JmxPoller poller : pollers.all()) {
      poller.bindTo(registry);
      poller.connected(recording);
    }
    compilerCpu.bindTo(registry);
    calls.clear();
  }

  private void pollDetectionSignals() throws Exception {
    for (JmxPoller poller : pollers.all()) {
      poller.pollDetectionSignals(recording);
    }
    compilerCpu.pollDetectionSignals(recording);
  }

  @Test
  void readsOnlyWhatDetectionNeedsInOneRoundTripPerMBean() throws Exception {
    pollDetectionSignals();

    List<String> codeCachePools =
        pollers.memory().pools().stream()
            .filter(MemoryPoolPoller.Pool::isCodeCache)
            .map(pool -> "getAttributes " + pool.objectName())
            .toList();
    assertThat(codeCachePools).isNotEmpty();
    assertThat(calls)
        .containsOnlyOnce("getAttributes " + ObjectNames.THREADING)
        .containsOnlyOnce("getAttributes " + ObjectNames.COMPILATION)
        .containsOnlyOnce("invoke " + ObjectNames.THREADING + " getThreadInfo")
        .containsOnlyOnce("invoke " + ObjectNames.DIAGNOSTIC_COMMAND + " compilerCodecache")
        .containsAll(codeCachePools);
    // Nothing else: no heap pool, no other MBean, no single-attribute read, no thread dump.
    assertThat(calls).hasSize(4 + codeCachePools.size());
    assertThat(calls).noneMatch(call -> call.contains("threadPrint"));
    assertThat(calls).noneMatch(call -> call.contains("dumpAllThreads"));
  }

  @Test
  void theValuesDetectionReadsAreFreshAfterIt() throws Exception {
    pollDetectionSignals();
    double before = pollers.threads().current().number("TotalStartedThreadCount");

    for (int i = 0; i < 3; i++) {
      Thread thread = new Thread(() -> {});
      thread.start();
      thread.join();
    }
    pollDetectionSignals();

    assertThat(pollers.threads().current().number("TotalStartedThreadCount"))
        .isGreaterThanOrEqualTo(before + 3);
    assertThat(pollers.threads().states()).isNotNull();
    assertThat(pollers.compilation().totalCompilationMillis()).isNotNaN();
    assertThat(pollers.codeCacheState().state()).isNotNull();
    assertThat(
            pollers.memory().pools().stream()
                .filter(MemoryPoolPoller.Pool::isCodeCache)
                .map(pollers.memory()::usage))
        .doesNotContainNull();
    // The heap pools wait for the full poll.
    assertThat(
            pollers.memory().pools().stream()
                .filter(pool -> !pool.isCodeCache())
                .map(pollers.memory()::usage))
        .containsOnlyNulls();
  }

  /** A connection that records each remote call as "method objectName [operation]". */
  private static MBeanServerConnection recording(MBeanServer server, List<String> calls) {
    return (MBeanServerConnection)
        Proxy.newProxyInstance(
            DetectionSignalsPollTest.class.getClassLoader(),
            new Class<?>[] {MBeanServerConnection.class},
            (proxy, method, args) -> {
              String call = method.getName();
              if (args != null && args.length > 0 && args[0] instanceof ObjectName name) {
                call += " " + name;
                if (method.getName().equals("invoke")) {
                  call += " " + args[1];
                }
              }
              calls.add(call);
              try {
                return method.invoke(server, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
