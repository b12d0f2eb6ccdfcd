package io.jvmsentinel.lab;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The JVM's own view of its code cache: the DiagnosticCommand {@code compilerCodecache} (= {@code
 * jcmd Compiler.codecache}), read in-process so a scenario can announce the moment the JIT stops.
 */
final class CodeCacheStatus {

  private static final String DIAGNOSTIC_COMMAND = "com.sun.management:type=DiagnosticCommand";

  private CodeCacheStatus() {}

  /** The {@code compilerCodecache} text, or an empty string where the command is missing. */
  static String text() {
    try {
      return (String)
          ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new ObjectName(DIAGNOSTIC_COMMAND),
                  "compilerCodecache",
                  new Object[] {new String[0]},
                  new String[] {String[].class.getName()});
    } catch (JMException e) {
      return "";
    }
  }

  /**
   * Whether compilation is disabled: JDK 17 prints {@code compilation: disabled}, JDK 21+ {@code
   * Compilation: disabled (...)}.
   */
  static boolean compilationDisabled(String text) {
    return text.toLowerCase(Locale.ROOT).contains("compilation: disabled");
  }
}
