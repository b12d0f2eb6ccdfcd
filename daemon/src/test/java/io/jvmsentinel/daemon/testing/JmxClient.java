package io.jvmsentinel.daemon.testing;

import io.jvmsentinel.daemon.lab.LabProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;

/** A plain remote JMX connection to a lab target, for assertions about what it exposes. */
public final class JmxClient implements AutoCloseable {

  public static final String RUNTIME = "java.lang:type=Runtime";
  public static final String THREADING = "java.lang:type=Threading";

  private final JMXConnector connector;
  private final MBeanServerConnection connection;

  private JmxClient(JMXConnector connector) throws IOException {
    this.connector = connector;
    this.connection = connector.getMBeanServerConnection();
  }

  public static JmxClient connect(LabProcess lab) {
    try {
      return new JmxClient(JMXConnectorFactory.connect(lab.jmxServiceUrl()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to " + lab, e);
    }
  }

  public MBeanServerConnection connection() {
    return connection;
  }

  public Object attribute(String objectName, String attribute) {
    try {
      return connection.getAttribute(new ObjectName(objectName), attribute);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (JMException e) {
      throw new IllegalStateException(objectName + " " + attribute, e);
    }
  }

  public long longAttribute(String objectName, String attribute) {
    return ((Number) attribute(objectName, attribute)).longValue();
  }

  /** Threads started in the target since it began ({@code TotalStartedThreadCount}). */
  public long startedThreads() {
    return longAttribute(THREADING, "TotalStartedThreadCount");
  }

  @Override
  public void close() {
    try {
      connector.close();
    } catch (IOException e) {
      // The target may be gone already; nothing to release then.
    }
  }
}
