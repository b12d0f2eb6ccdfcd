package io.jvmsentinel.daemon.target;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * Stops the remote JMX agent of a JVM: the diagnostic command {@code ManagementAgent.stop} through
 * the Attach API.
 *
 * <p>HotSpot offers {@code ManagementAgent.start} and {@code .stop} to the Attach API and jcmd
 * only, not to the DiagnosticCommand MBean (its {@code jmx_agent_export_flags}), and the public
 * Attach API has {@code startManagementAgent} but no stop. So the command goes through the JDK's
 * own {@code HotSpotVirtualMachine.executeJCmd}, which needs {@code sun.tools.attach} exported to
 * the daemon: the jar's manifest does that ({@code Add-Exports}) for {@code java -jar}; otherwise
 * this says what to add.
 */
final class AgentStop {
  static final String EXPORT = "--add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED";

  private AgentStop() {}

  /**
   * Runs {@code ManagementAgent.stop} in the attached JVM.
   *
   * @return what the JVM answered (empty when it said nothing)
   * @throws IOException when the command could not be run, saying why
   */
  static String run(VirtualMachine vm) throws IOException {
    Method jcmd;
    try {
      jcmd = vm.getClass().getMethod("executeJCmd", String.class);
    } catch (NoSuchMethodException e) {
      throw new IOException("this JDK's Attach API has no jcmd (" + vm.getClass() + ")", e);
    }
    try (InputStream reply = (InputStream) jcmd.invoke(vm, "ManagementAgent.stop")) {
      return new String(reply.readNBytes(4096), StandardCharsets.UTF_8).strip();
    } catch (IllegalAccessException e) {
      throw new IOException(
          "the daemon cannot run jcmd through the Attach API: start it with " + EXPORT, e);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException("ManagementAgent.stop failed: " + cause, cause);
    }
  }
}
