package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.catalog.Metric;
import io.jvmsentinel.collectors.text.SafeText;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/**
 * Reads the target's identity once per connection and exports {@code jvm.info}. A target restarted
 * on another JDK gets a new {@code jvm.info} series; the old one is removed.
 */
public final class JvmIdentityPoller implements JmxPoller {
  private final Tags tags;
  private MeterRegistry registry;
  private volatile JvmIdentity identity;
  private Gauge info;

  public JvmIdentityPoller(Tags tags) {
    this.tags = tags;
  }

  @Override
  public String name() {
    return "identity";
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public synchronized void connected(MBeanServerConnection mbeans) throws IOException, JMException {
    JvmIdentity read = read(mbeans);
    Tags infoTags =
        tags.and(
            "version",
            read.javaVersion(),
            "vendor",
            read.vmVendor(),
            "runtime",
            read.runtimeName());
    if (info != null && !info.getId().getTags().equals(infoTags.stream().toList())) {
      registry.remove(info);
      info = null;
    }
    if (info == null) {
      info =
          Metric.JVM_INFO.gauge(registry, infoTags, this, p -> p.identity == null ? Double.NaN : 1);
    }
    identity = read;
  }

  @Override
  public void poll(MBeanServerConnection mbeans) {
    // Identity does not change during a connection.
  }

  /** The identity of the connected target, or of the last one seen; null before any connection. */
  public JvmIdentity identity() {
    return identity;
  }

  @Override
  public void disconnected() {
    // Keep the identity for the API (what we were watching), jvm.info reads NaN meanwhile.
  }

  private static final Set<String> USED_PROPERTIES =
      Set.of(
          "java.runtime.version",
          "java.runtime.name",
          "java.specification.version",
          "java.version");
  static final int MAX_ARGUMENTS = 512;
  static final int MAX_ARGUMENT_CHARS = 4 * SafeText.MAX_NAME;

  static JvmIdentity read(MBeanServerConnection mbeans) throws IOException, JMException {
    Attributes runtime =
        Attributes.read(
            mbeans,
            ObjectNames.RUNTIME,
            "VmName",
            "VmVendor",
            "VmVersion",
            "SpecVersion",
            "Pid",
            "Name",
            "StartTime",
            "InputArguments",
            "SystemProperties");
    Map<String, String> properties = systemProperties(runtime.get("SystemProperties"));
    String javaVersion =
        properties.getOrDefault("java.runtime.version", runtime.string("VmVersion", "unknown"));
    return new JvmIdentity(
        runtime.string("VmName", "unknown"),
        runtime.string("VmVendor", "unknown"),
        runtime.string("VmVersion", "unknown"),
        javaVersion,
        properties.getOrDefault("java.runtime.name", runtime.string("VmName", "unknown")),
        featureVersion(runtime, properties),
        pid(runtime),
        (long) orZero(runtime.number("StartTime")),
        inputArguments(runtime.get("InputArguments")),
        vmOptions(mbeans));
  }

  /**
   * {@code SpecVersion} ("1.8" on JDK 8, "17" since JEP 223); the system properties when a target
   * leaves it out or sends something unreadable.
   */
  private static int featureVersion(Attributes runtime, Map<String, String> properties) {
    int feature = JvmIdentity.parseFeatureVersion(runtime.string("SpecVersion", null));
    if (feature == 0) {
      feature = JvmIdentity.parseFeatureVersion(properties.get("java.specification.version"));
    }
    return feature != 0 ? feature : JvmIdentity.parseFeatureVersion(properties.get("java.version"));
  }

  /**
   * {@code Pid} exists since JDK 10 ({@code RuntimeMXBean.getPid()}); older targets only name
   * themselves {@code pid@host} (jdk8u {@code sun/management/VMManagementImpl.getVmId()}). 0 if
   * neither says.
   */
  private static long pid(Attributes runtime) {
    double pid = runtime.number("Pid");
    if (!Double.isNaN(pid)) {
      return (long) pid;
    }
    String name = runtime.string("Name", "");
    int at = name.indexOf('@');
    try {
      long parsed = at > 0 && at <= 19 ? Long.parseLong(name.substring(0, at)) : 0;
      return Math.max(parsed, 0);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Map<String, String> vmOptions(MBeanServerConnection mbeans) throws IOException {
    Map<String, String> options = new LinkedHashMap<>();
    for (String option : JvmIdentity.WATCHED_VM_OPTIONS) {
      try {
        Object value =
            mbeans.invoke(
                ObjectNames.HOTSPOT_DIAGNOSTIC,
                "getVMOption",
                new Object[] {option},
                new String[] {String.class.getName()});
        if (value instanceof CompositeData data) {
          options.put(option, SafeText.name(String.valueOf(data.get("value"))));
        }
      } catch (JMException | RuntimeException e) {
        // Not a HotSpot VM, or an option this JDK lacks: getVMOption throws
        // IllegalArgumentException("VM option \"SegmentedCodeCache\" does not exist") on JDK 8
        // (jdk8u sun/management/HotSpotDiagnostic.java), which reaches us as a
        // RuntimeMBeanException. Absent from vmOptions, never logged: it is the same every time.
      }
    }
    return options;
  }

  /** The few properties the identity reads, their values cut and made safe (they become tags). */
  private static Map<String, String> systemProperties(Object value) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (value instanceof TabularData table) {
      for (Object row : table.values()) {
        if (row instanceof CompositeData entry
            && USED_PROPERTIES.contains(String.valueOf(entry.get("key")))) {
          properties.put(
              String.valueOf(entry.get("key")), SafeText.name(String.valueOf(entry.get("value"))));
        }
      }
    }
    return properties;
  }

  /**
   * The target's JVM arguments as the API shows them: at most {@value #MAX_ARGUMENTS}, each cut and
   * made safe; a target may start with, or report, any number of any text.
   */
  static List<String> inputArguments(Object value) {
    if (!(value instanceof String[] args)) {
      return List.of();
    }
    return Arrays.stream(args)
        .limit(MAX_ARGUMENTS)
        .map(arg -> SafeText.bounded(String.valueOf(arg), MAX_ARGUMENT_CHARS))
        .toList();
  }

  private static double orZero(double value) {
    return Double.isNaN(value) ? 0 : value;
  }
}
