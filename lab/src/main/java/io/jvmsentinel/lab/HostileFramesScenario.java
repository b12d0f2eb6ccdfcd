package io.jvmsentinel.lab;

import java.lang.management.ManagementFactory;
import java.util.function.Consumer;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A thread storm whose every name is an attack on what the daemon writes: the threads are started
 * by a class whose name (legal to the JVM, which forbids only {@code . ; [ /} in it, so the forged
 * log line has no dot and the log line and escape sequence no bracket) carries the separators of
 * DogStatsD ({@code | # , :}), a Slack mention ({@code <!channel>}), markup, a line break with a
 * forged log line, an escape sequence and 4,000 more characters; the threads' names carry the same.
 * Beside it, {@value #FAKE_POOLS} made-up memory pool MBeans with such names ask the daemon for a
 * series each, and {@value #SHORT_POOLS} memory pools and {@value #SHORT_BUFFER_POOLS} buffer pools
 * with short plain names ({@code p0}, {@code b0}: shorter than any the JVM uses) try to crowd out
 * the real ones.
 */
final class HostileFramesScenario implements Scenario {
  static final String MARK = "hostile-frames";
  static final String HOSTILE =
      "Evil<!channel>|#tag:x,y\"*bold*`_<img src=x onerror=alert(3)>\n"
          + "2026-01-01T00:00:00,000Z ERROR main Forged: owned \u001bc\u0007\u202E";
  static final String CLASS_NAME = MARK + HOSTILE + "A".repeat(4_000);
  static final String THREAD_NAME = MARK + "-thread " + HOSTILE + "T".repeat(4_000);
  static final int FAKE_POOLS = 2_000;
  static final int SHORT_POOLS = 48;
  static final int SHORT_BUFFER_POOLS = 12;
  static final int DEFAULT_RATE = 100;

  private final int rate;

  HostileFramesScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return MARK;
  }

  @Override
  public String description() {
    return "starts --rate threads/s (default "
        + DEFAULT_RATE
        + ") from a class, and with names, made of separators, mentions, markup and line breaks,"
        + " and registers "
        + FAKE_POOLS
        + " memory pool MBeans so named, "
        + SHORT_POOLS
        + " memory and "
        + SHORT_BUFFER_POOLS
        + " buffer pools with short names";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    registerFakePools();
    Consumer<String> starter = renamedStarter();
    log.onset(MARK, "rate", rate);
    RateLoop.run(rate, sequence -> starter.accept(THREAD_NAME));
  }

  private static void registerFakePools() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      for (int i = 0; i < FAKE_POOLS; i++) {
        String name = HOSTILE + i;
        server.registerMBean(
            new FakePool(name + "P".repeat(4_000)),
            new ObjectName("java.lang:type=MemoryPool,name=" + ObjectName.quote(name)));
      }
      for (int i = 0; i < SHORT_POOLS; i++) {
        server.registerMBean(
            new FakePool("p" + i), new ObjectName("java.lang:type=MemoryPool,name=p" + i));
      }
      for (int i = 0; i < SHORT_BUFFER_POOLS; i++) {
        server.registerMBean(
            new FakePool("b" + i), new ObjectName("java.nio:type=BufferPool,name=b" + i));
      }
    } catch (JMException e) {
      throw new IllegalStateException("cannot register the made-up memory pools", e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Consumer<String> renamedStarter() {
    return RenamedClass.newInstance(HostileFrameTemplate.class, CLASS_NAME, Consumer.class);
  }

  /** A memory or buffer pool that is only a name: every other attribute reads null. */
  private static final class FakePool extends AnsweringMBean {
    private final String name;

    FakePool(String name) {
      this.name = name;
    }

    @Override
    Object answer(String attribute) {
      if (attribute.equals("Name")) {
        return name;
      }
      return attribute.equals("Type") ? "HEAP" : null;
    }
  }
}
