package io.jvmsentinel.daemon.target;

import javax.management.MBeanServer;
import javax.management.remote.JMXConnector;

/** Hands out a connector to an in-process MBean server, as if it were remote. */
record InProcessConnector(MBeanServer server) implements Connector {
  @Override
  public JMXConnector connect() {
    return new LocalJmxConnector(server);
  }

  @Override
  public String describe() {
    return "in-process test target";
  }
}
