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

  /** The VM options worth knowing when reading code cache and JIT metrics. */
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

  public JvmIdentity {
    inputArguments = List.copyOf(inputArguments);
    vmOptions = Map.copyOf(vmOptions);
  }

  /** Parses "17", "17.0.15", "1.8" or "25-ea" into a feature version; 0 when unparseable. */
  public static int parseFeatureVersion(String specVersion) {
    if (specVersion == null || specVersion.isBlank()) {
      return 0;
    }
    String v = specVersion.startsWith("1.") ? specVersion.substring(2) : specVersion;
    int end = 0;
    while (end < v.length() && Character.isDigit(v.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
  }
}
