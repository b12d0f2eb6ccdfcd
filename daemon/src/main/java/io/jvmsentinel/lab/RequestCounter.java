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

  /** A counter registered as {@value RequestCounterMBean#OBJECT_NAME}. */
  static RequestCounter register() {
    RequestCounter counter = new RequestCounter();
    try {
      ManagementFactory.getPlatformMBeanServer()
          .registerMBean(counter, new ObjectName(OBJECT_NAME));
    } catch (JMException e) {
      throw new IllegalStateException("cannot register " + OBJECT_NAME, e);
    }
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
