package io.jvmsentinel.collectors.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import javax.management.MBeanServer;
import javax.management.openmbean.ArrayType;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import org.junit.jupiter.api.Test;

class VirtualThreadCarriersTest {
  private static final CompositeType FRAME;
  private static final CompositeType INFO;

  static {
    try {
      FRAME =
          new CompositeType(
              "StackTraceElement",
              "frame",
              new String[] {"className", "methodName"},
              new String[] {"class", "method"},
              new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING});
      INFO =
          new CompositeType(
              "ThreadInfo",
              "thread",
              new String[] {"threadName", "threadState", "stackTrace"},
              new String[] {"name", "state", "stack"},
              new OpenType<?>[] {SimpleType.STRING, SimpleType.STRING, new ArrayType<>(1, FRAME)});
    } catch (Exception e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Test
  void mountedCarriersAreRunningOrPinnedByTheirState() throws Exception {
    CompositeData[] infos = {
      carrier("RUNNABLE", "jdk.internal.vm.Continuation", "run"),
      carrier("WAITING", "jdk.internal.vm.Continuation", "run"),
      carrier("BLOCKED", "jdk.internal.vm.Continuation", "run"),
      // Idle: parked in ForkJoinPool.awaitWork (measured on JDK 21.0.8).
      carrier("TIMED_WAITING", "jdk.internal.misc.Unsafe", "park"),
      null, // ended between the reads
      carrier("WAITING", null, null), // no frames
    };

    assertThat(VirtualThreadCarriers.count(infos))
        .isEqualTo(new VirtualThreadCarriers.Carriers(1, 2));
  }

  @Test
  void anApplicationsForkJoinPoolHasNoCarriers() throws Exception {
    ForkJoinPool pool = new ForkJoinPool(2);
    CountDownLatch busy = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try {
      pool.execute(
          () -> {
            busy.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      busy.await();
      MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
      long[] ids = (long[]) mbeans.getAttribute(ObjectNames.THREADING, "AllThreadIds");
      CompositeData[] infos =
          (CompositeData[])
              mbeans.invoke(
                  ObjectNames.THREADING,
                  "getThreadInfo",
                  new Object[] {ids},
                  new String[] {long[].class.getName()});
      List<String> workers = new ArrayList<>();
      for (CompositeData info : infos) {
        if (info != null
            && ((String) info.get("threadName")).matches("ForkJoinPool-\\d+-worker-\\d+")) {
          workers.add((String) info.get("threadName"));
        }
      }

      assertThat(workers).as("the pool's workers are read").isNotEmpty();
      assertThat(VirtualThreadCarriers.read(mbeans, ids, infos))
          .isEqualTo(VirtualThreadCarriers.Carriers.NONE);
    } finally {
      release.countDown();
      pool.shutdown();
    }
  }

  private static CompositeData carrier(String state, String topClass, String topMethod)
      throws Exception {
    CompositeData[] stack =
        topClass == null
            ? new CompositeData[0]
            : new CompositeData[] {
              new CompositeDataSupport(
                  FRAME, Map.of("className", topClass, "methodName", topMethod))
            };
    return new CompositeDataSupport(
        INFO,
        Map.of("threadName", "ForkJoinPool-1-worker-1", "threadState", state, "stackTrace", stack));
  }
}
