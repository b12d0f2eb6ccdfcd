package io.jvmsentinel.collectors.jmx;

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

  public static ObjectName parse(String name) {
    try {
      return new ObjectName(name);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }
}
