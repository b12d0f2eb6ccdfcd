import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * One part of the daemon's fast detection poll, alone, every INTERVAL_MS against the JVM at
 * HOST:PORT, until killed: {@code states} reads the thread states as ThreadPoller does (AllThreadIds
 * with the counts in one getAttributes, then getThreadInfo of every id, no stacks); {@code counts}
 * reads the rest (the Threading counts, the code cache pools' Usage and PeakUsage, the total
 * compilation time and the compilerCodecache DiagnosticCommand).
 */
public class SignalReads {
  /** Retries for 30 s: on a loaded machine the lab's JMX agent may not listen yet. */
  private static javax.management.remote.JMXConnector connect(JMXServiceURL url) throws Exception {
    long giveUp = System.currentTimeMillis() + 30_000;
    while (true) {
      try {
        return JMXConnectorFactory.connect(url);
      } catch (java.io.IOException e) {
        if (System.currentTimeMillis() > giveUp) {
          throw e;
        }
        Thread.sleep(500);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    String part = args[1];
    long every = Long.parseLong(args[2]);
    JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + args[0] + "/jmxrmi");
    try (var connector = connect(url)) {
      MBeanServerConnection mbeans = connector.getMBeanServerConnection();
      ObjectName threading = new ObjectName(ManagementFactory.THREAD_MXBEAN_NAME);
      ObjectName compilation = new ObjectName(ManagementFactory.COMPILATION_MXBEAN_NAME);
      ObjectName diagnostic = new ObjectName("com.sun.management:type=DiagnosticCommand");
      Set<ObjectName> pools =
          mbeans.queryNames(new ObjectName(ManagementFactory.MEMORY_POOL_MXBEAN_DOMAIN_TYPE + ",*"), null);
      pools.removeIf(p -> !p.getKeyProperty("name").matches("CodeHeap.*|CodeCache"));
      while (true) {
        long next = System.currentTimeMillis() + every;
        if (part.equals("states")) {
          var a = mbeans.getAttributes(threading, new String[] {"TotalStartedThreadCount", "AllThreadIds"});
          long[] ids = (long[]) a.asList().get(1).getValue();
          var infos =
              (CompositeData[])
                  mbeans.invoke(threading, "getThreadInfo", new Object[] {ids}, new String[] {long[].class.getName()});
          if (infos.length == 0) {
            throw new IllegalStateException("no threads");
          }
        } else {
          mbeans.getAttributes(
              threading,
              new String[] {"ThreadCount", "DaemonThreadCount", "PeakThreadCount", "TotalStartedThreadCount"});
          for (ObjectName pool : pools) {
            mbeans.getAttributes(pool, new String[] {"Usage", "PeakUsage"});
          }
          mbeans.getAttributes(compilation, new String[] {"TotalCompilationTime"});
          mbeans.invoke(diagnostic, "compilerCodecache", new Object[] {new String[0]}, new String[] {String[].class.getName()});
        }
        Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
      }
    }
  }
}
