import java.lang.management.ManagementFactory;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Prints "startedThreads processCpuNanos" of the JVM at HOST:PORT, once per line read from stdin
 * (one connection for the whole run, so measuring costs the target the same in every mode).
 */
public class JmxRead {
  public static void main(String[] args) throws Exception {
    JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + args[0] + "/jmxrmi");
    try (var connector = JMXConnectorFactory.connect(url)) {
      MBeanServerConnection mbeans = connector.getMBeanServerConnection();
      ObjectName threading = new ObjectName(ManagementFactory.THREAD_MXBEAN_NAME);
      ObjectName os = new ObjectName(ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME);
      var in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
      while (in.readLine() != null) {
        long started = (Long) mbeans.getAttribute(threading, "TotalStartedThreadCount");
        long cpu = (Long) mbeans.getAttribute(os, "ProcessCpuTime");
        System.out.println(started + " " + cpu);
        System.out.flush();
      }
    }
  }
}
