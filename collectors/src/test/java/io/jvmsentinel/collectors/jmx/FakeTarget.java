package io.jvmsentinel.collectors.jmx;

import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.StandardMBean;

/**
 * A fake target: a private MBean server holding MXBeans with fixed values under the platform names.
 * The pollers see exactly what a remote connection shows them: attribute names and open types
 * (MemoryUsage arrives as CompositeData through the real MXBean mapping).
 */
final class FakeTarget {
  final MBeanServer server = MBeanServerFactory.newMBeanServer();

  /** The attributes of {@code java.lang:type=Threading} that the pollers read. */
  public interface ThreadingMXBean {
    int getThreadCount();

    int getDaemonThreadCount();

    int getPeakThreadCount();

    long getTotalStartedThreadCount();
  }

  /** The attributes of a {@code java.lang:type=MemoryPool} that the pollers read. */
  public interface PoolMXBean {
    String getName();

    MemoryType getType();

    MemoryUsage getUsage();

    MemoryUsage getPeakUsage();
  }

  record Threading(int live, int daemon, int peak, long started) implements ThreadingMXBean {
    @Override
    public int getThreadCount() {
      return live;
    }

    @Override
    public int getDaemonThreadCount() {
      return daemon;
    }

    @Override
    public int getPeakThreadCount() {
      return peak;
    }

    @Override
    public long getTotalStartedThreadCount() {
      return started;
    }
  }

  record Pool(String name, MemoryType type, MemoryUsage usage, MemoryUsage peak)
      implements PoolMXBean {
    @Override
    public String getName() {
      return name;
    }

    @Override
    public MemoryType getType() {
      return type;
    }

    @Override
    public MemoryUsage getUsage() {
      return usage;
    }

    @Override
    public MemoryUsage getPeakUsage() {
      return peak;
    }
  }

  FakeTarget threading(int live, int daemon, int peak, long started) throws JMException {
    register(
        new Threading(live, daemon, peak, started),
        ThreadingMXBean.class,
        "java.lang:type=Threading");
    return this;
  }

  FakeTarget pool(String name, MemoryType type, MemoryUsage usage, MemoryUsage peak)
      throws JMException {
    register(
        new Pool(name, type, usage, peak),
        PoolMXBean.class,
        "java.lang:type=MemoryPool,name=" + name);
    return this;
  }

  private <T> void register(T impl, Class<T> type, String name) throws JMException {
    server.registerMBean(new StandardMBean(impl, type, true), ObjectNames.parse(name));
  }
}
