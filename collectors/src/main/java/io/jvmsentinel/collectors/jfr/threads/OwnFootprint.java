package io.jvmsentinel.collectors.jfr.threads;

import io.jvmsentinel.collectors.jfr.handler.StackFrame;
import java.util.List;

/**
 * Recognises the thread starts the monitoring itself causes in the target: the JDK serving a remote
 * management client (the daemon's JMX connection and the JFR stream over it) or starting its
 * management agent. Measured (JDK 11, 17, 21, 25): {@code RMI TCP Connection} threads started by
 * the RMI accept loop for each new connection, {@code JMX server connection timeout} per JMX
 * client, {@code RMI Scheduler} for a client's lease, JFR's {@code StreamManager} timer when the
 * first stream is opened over the {@code FlightRecorderMXBean}, and on JDK 25 the {@code JFR
 * Recording Scheduler} of the recording's lease.
 *
 * <p>A start is the monitoring's own when every frame from the top of its stack down to the frame
 * where the JDK serves a remote client ({@link #SERVING}) is the JDK's own code: no application
 * code on the way, and the serving frame within the recorded stack. So the application's code run
 * by a remote call (its own MBean, its RMI service) stays the application's, and so does a target
 * that is itself a JMX client. The classification reads class loaders ({@link StackFrame#jdk()}),
 * never thread names or class names alone: a target may name its threads {@code RMI TCP
 * Connection}, or its classes {@code sun.rmi...}, and stay the application.
 *
 * <p>The cost: an application's own RMI service accepting connections, or another JMX client (a
 * console), runs the same JDK code and is counted as the monitoring's too; a start without a stack,
 * or started on a helper thread no client call runs on ({@code JFR Recording Scheduler} on JDK 17
 * and 21), cannot be told and stays the application's.
 */
final class OwnFootprint {
  /** A frame where the JDK serves a remote client: a class, and its method (null: any). */
  private record Serving(String className, String method) {
    boolean matches(StackFrame frame) {
      return className.equals(frame.className())
          && (method == null || method.equals(frame.methodName()));
    }
  }

  /**
   * An RMI call being dispatched, the RMI connection handler and accept loop (server side only: a
   * client's calls never run these), and the management agent started by an attach or a {@code
   * -Dcom.sun.management} flag ({@code jdk.internal.agent} from JDK 9, {@code sun.management} in
   * JDK 8, which was not measured).
   */
  private static final List<Serving> SERVING =
      List.of(
          new Serving("sun.rmi.transport.Transport", "serviceCall"),
          new Serving("sun.rmi.transport.tcp.TCPTransport$AcceptLoop", null),
          new Serving("sun.rmi.transport.tcp.TCPTransport$ConnectionHandler", null),
          new Serving("jdk.internal.agent.Agent", null),
          new Serving("sun.management.Agent", null));

  private OwnFootprint() {}

  /**
   * Whether a start with this stack is the monitoring's own.
   *
   * @param frames the stack, top first; null when the start has none
   */
  static boolean includes(List<StackFrame> frames) {
    if (frames == null) {
      return false;
    }
    for (StackFrame frame : frames) {
      if (!frame.jdk()) {
        return false;
      }
      if (serving(frame)) {
        return true;
      }
    }
    return false;
  }

  private static boolean serving(StackFrame frame) {
    for (Serving serving : SERVING) {
      if (serving.matches(frame)) {
        return true;
      }
    }
    return false;
  }
}
