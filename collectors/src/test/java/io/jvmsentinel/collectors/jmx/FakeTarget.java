package io.jvmsentinel.collectors.jmx;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
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

  /**
   * {@code java.lang:type=Runtime} as a JDK 8 target shows it: no {@code Pid} attribute (JDK 10+),
   * the pid only in {@code Name} ({@code pid@host}), {@code SpecVersion} "1.8".
   */
  public interface Jdk8RuntimeMXBean {
    String getName();

    String getVmName();

    String getVmVendor();

    String getVmVersion();

    String getSpecVersion();

    long getStartTime();

    List<String> getInputArguments();

    Map<String, String> getSystemProperties();
  }

  record Jdk8Runtime(
      String name,
      String vmName,
      String vmVendor,
      String vmVersion,
      String specVersion,
      long startTime,
      List<String> inputArguments,
      Map<String, String> systemProperties)
      implements Jdk8RuntimeMXBean {
    @Override
    public String getName() {
      return name;
    }

    @Override
    public String getVmName() {
      return vmName;
    }

    @Override
    public String getVmVendor() {
      return vmVendor;
    }

    @Override
    public String getVmVersion() {
      return vmVersion;
    }

    @Override
    public String getSpecVersion() {
      return specVersion;
    }

    @Override
    public long getStartTime() {
      return startTime;
    }

    @Override
    public List<String> getInputArguments() {
      return inputArguments;
    }

    @Override
    public Map<String, String> getSystemProperties() {
      return systemProperties;
    }
  }

  /**
   * {@code com.sun.management:type=HotSpotDiagnostic} knowing only {@code options}; any other name
   * fails as jdk8u {@code sun/management/HotSpotDiagnostic.getVMOption} does, with {@code
   * IllegalArgumentException("VM option \"...\" does not exist")} (the MBean server wraps it in a
   * RuntimeMBeanException, as a JDK 11 target was seen to over remote JMX).
   */
  record HotSpotDiagnostic(Map<String, String> options) implements HotSpotDiagnosticMXBean {
    @Override
    public VMOption getVMOption(String name) {
      String value = options.get(name);
      if (value == null) {
        throw new IllegalArgumentException("VM option \"" + name + "\" does not exist");
      }
      return new VMOption(name, value, false, VMOption.Origin.DEFAULT);
    }

    @Override
    public List<VMOption> getDiagnosticOptions() {
      return List.of();
    }

    @Override
    public void dumpHeap(String outputFile, boolean live) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void setVMOption(String name, String value) {
      throw new UnsupportedOperationException();
    }

    @Override
    public javax.management.ObjectName getObjectName() {
      return ObjectNames.HOTSPOT_DIAGNOSTIC;
    }
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

  /**
   * A pool registered under {@code objectName} (quoted as the test needs) whose Name is {@code
   * name}.
   */
  FakeTarget pool(String objectName, String name, MemoryUsage usage) throws JMException {
    register(new Pool(name, MemoryType.HEAP, usage, usage), PoolMXBean.class, objectName);
    return this;
  }

  FakeTarget runtime(Jdk8Runtime runtime) throws JMException {
    register(runtime, Jdk8RuntimeMXBean.class, "java.lang:type=Runtime");
    return this;
  }

  FakeTarget hotSpotDiagnostic(Map<String, String> options) throws JMException {
    register(
        new HotSpotDiagnostic(options),
        HotSpotDiagnosticMXBean.class,
        "com.sun.management:type=HotSpotDiagnostic");
    return this;
  }

  private <T> void register(T impl, Class<T> type, String name) throws JMException {
    server.registerMBean(new StandardMBean(impl, type, true), ObjectNames.parse(name));
  }
}
