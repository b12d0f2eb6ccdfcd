package io.jvmsentinel.collectors.jmx;

import java.util.List;
import java.util.Map;

/**
 * Who the target is, read once per connection: version and vendor, start time, command-line
 * arguments, and the VM options that decide code cache and JIT behaviour.
 *
 * @param featureVersion the Java feature release (8, 11, 17, 25...), 0 if unknown
 * @param vmOptions values of {@link #WATCHED_VM_OPTIONS} the target has (absent ones are left out)
 */
public record JvmIdentity(
    String vmName,
    String vmVendor,
    String vmVersion,
    String javaVersion,
    String runtimeName,
    int featureVersion,
    long pid,
    long startTimeMillis,
    List<String> inputArguments,
    Map<String, String> vmOptions) {

  /**
   * The VM options worth knowing when reading code cache and JIT metrics. JDK 8 has no segmented
   * code cache (JEP 197, JDK 9), so {@code SegmentedCodeCache} and the three {@code *CodeHeapSize}
   * options do not exist there (jdk8u {@code hotspot/src/share/vm/runtime/globals.hpp}).
   */
  public static final List<String> WATCHED_VM_OPTIONS =
      List.of(
          "ReservedCodeCacheSize",
          "TieredCompilation",
          "UseCodeCacheFlushing",
          "SegmentedCodeCache",
          "InitialCodeCacheSize",
          "NonProfiledCodeHeapSize",
          "ProfiledCodeHeapSize",
          "NonNMethodCodeHeapSize",
          "CICompilerCount");

  private static final int MAX_FEATURE_DIGITS = 4;

  public JvmIdentity {
    inputArguments = List.copyOf(inputArguments);
    vmOptions = Map.copyOf(vmOptions);
  }

  /**
   * The feature release of a Java version string: "17", "17.0.15", "21", "25-ea", and the pre-JDK 9
   * scheme of JDK 8 targets, "1.8" (their {@code SpecVersion}), "1.8.0_392" ({@code java.version})
   * or "1.8.0_392-b08" ({@code java.runtime.version}): JEP 223 dropped the "1." in JDK 9. 0 when
   * unparseable, including a leading number of more than {@value #MAX_FEATURE_DIGITS} digits (the
   * string comes from the target).
   */
  public static int parseFeatureVersion(String version) {
    if (version == null) {
      return 0;
    }
    String v = version.strip();
    if (v.startsWith("1.")) {
      v = v.substring(2);
    }
    int end = 0;
    while (end < v.length() && isAsciiDigit(v.charAt(end))) {
      end++;
    }
    return end == 0 || end > MAX_FEATURE_DIGITS ? 0 : Integer.parseInt(v.substring(0, end));
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
