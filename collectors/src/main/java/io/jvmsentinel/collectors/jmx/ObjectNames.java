package io.jvmsentinel.collectors.jmx;

import io.jvmsentinel.collectors.support.CardinalityCap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** The platform MBean names the pollers read, parsed once. */
public final class ObjectNames {
  public static final ObjectName THREADING = parse("java.lang:type=Threading");
  public static final ObjectName COMPILATION = parse("java.lang:type=Compilation");
  public static final ObjectName CLASS_LOADING = parse("java.lang:type=ClassLoading");
  public static final ObjectName OPERATING_SYSTEM = parse("java.lang:type=OperatingSystem");
  public static final ObjectName RUNTIME = parse("java.lang:type=Runtime");
  public static final ObjectName MEMORY_POOLS = parse("java.lang:type=MemoryPool,name=*");
  public static final ObjectName BUFFER_POOLS = parse("java.nio:type=BufferPool,name=*");
  public static final ObjectName GARBAGE_COLLECTORS =
      parse("java.lang:type=GarbageCollector,name=*");
  public static final ObjectName DIAGNOSTIC_COMMAND =
      parse("com.sun.management:type=DiagnosticCommand");
  public static final ObjectName HOTSPOT_DIAGNOSTIC =
      parse("com.sun.management:type=HotSpotDiagnostic");

  private ObjectNames() {}

  /**
   * The MBeans matching {@code pattern}, the JVM's own first: every one registered under a name in
   * {@code own} (a fixed list, which bounds them), then the others, shortest names first, while
   * fewer than {@code max} in all; the rest are counted as refused by {@code cap} and never read.
   * The target decides how many MBeans it registers under a platform name (any of its code may),
   * and each one read costs a round trip on every poll and a few series: a JVM has a handful of
   * pools, each named in a few words, and made-up ones, however many and however short, take only
   * what its own leave.
   */
  public static List<ObjectName> ownFirst(
      MBeanServerConnection mbeans,
      ObjectName pattern,
      Set<String> own,
      int max,
      CardinalityCap cap)
      throws IOException {
    List<ObjectName> jvms = new ArrayList<>();
    List<ObjectName> others = new ArrayList<>();
    for (ObjectName name : mbeans.queryNames(pattern, null)) {
      (JvmPoolNames.registeredAs(name, own) ? jvms : others).add(name);
    }
    jvms.sort(Comparator.comparing(ObjectName::getCanonicalName));
    others.sort(
        Comparator.comparing((ObjectName name) -> quoted(name.getKeyProperty("name")))
            .thenComparingInt(name -> name.getCanonicalName().length())
            .thenComparing(ObjectName::getCanonicalName));
    int room = Math.max(0, max - jvms.size());
    if (others.size() > room) {
      others.subList(room, others.size()).forEach(refused -> cap.refuse());
      others = others.subList(0, room);
    }
    jvms.addAll(others);
    return List.copyOf(jvms);
  }

  private static boolean quoted(String value) {
    return value != null && value.startsWith("\"");
  }

  public static ObjectName parse(String name) {
    try {
      return new ObjectName(name);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }
}
