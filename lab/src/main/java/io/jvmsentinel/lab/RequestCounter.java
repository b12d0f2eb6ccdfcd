package io.jvmsentinel.lab;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The {@link RequestCounterMBean} of a request-driven scenario, registered in the platform MBean
 * server so a test can relate thread starts to requests exactly.
 */
final class RequestCounter implements RequestCounterMBean {

  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  private static RequestCounter registered;

  /**
   * The counter registered as {@value RequestCounterMBean#OBJECT_NAME}; one per JVM, shared by the
   * phases of a scenario that runs several request loops in turn ({@code mixed}).
   */
  static synchronized RequestCounter register() {
    if (registered != null) {
      return registered;
    }
    RequestCounter counter = new RequestCounter();
    try {
      ManagementFactory.getPlatformMBeanServer()
          .registerMBean(counter, new ObjectName(OBJECT_NAME));
    } catch (JMException e) {
      throw new IllegalStateException("cannot register " + OBJECT_NAME, e);
    }
    registered = counter;
    return counter;
  }

  void completed() {
    completed.incrementAndGet();
  }

  void failed() {
    failed.incrementAndGet();
  }

  @Override
  public long getCompleted() {
    return completed.get();
  }

  @Override
  public long getFailed() {
    return failed.get();
  }
}
