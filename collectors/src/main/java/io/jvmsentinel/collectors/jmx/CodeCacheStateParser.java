package io.jvmsentinel.collectors.jmx;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the text of the DiagnosticCommand {@code compilerCodecache} (jcmd {@code
 * Compiler.codecache}). The layout changed in JDK 21; both are read by key, not by line:
 *
 * <pre>
 * JDK 17:                                    JDK 21 and 25:
 *  total_blobs=849 nmethods=440 adapters=322  CodeCache: size=8192Kb, used=3990Kb, ... (segmented)
 *  compilation: enabled                        total_blobs=2579, nmethods=2115, adapters=369, full_count=1
 *               stopped_count=0, restarted_count=0   Compilation: disabled (not enough contiguous
 *  full_count=0                                       free space left), stopped_count=1, restarted_count=0
 * </pre>
 *
 * Unknown text parses to "unknown" values (NaN, null), never to an exception.
 */
public final class CodeCacheStateParser {
  private static final Pattern STATUS =
      Pattern.compile("(?im)^\\s*compilation:\\s*(enabled|disabled)(?:\\s*\\(([^)]*)\\))?");
  private static final Pattern HEAP =
      Pattern.compile(
          "(?m)^(CodeHeap '[^']*'|CodeCache):\\s*size=(\\d+)Kb,?\\s*used=(\\d+)Kb,?"
              + "\\s*max_used=(\\d+)Kb,?\\s*free=(\\d+)Kb");

  /** One code heap line (or the total {@code CodeCache} line), sizes in bytes. */
  public record Heap(String name, long size, long used, long maxUsed, long free) {}

  /**
   * The parsed state; counts are NaN where the text lacks them.
   *
   * @param compilationEnabled null when the text has no status line
   * @param disabledReason e.g. {@code not enough contiguous free space left}, null when enabled
   */
  public record CodeCacheState(
      Boolean compilationEnabled,
      String disabledReason,
      double stoppedCount,
      double restartedCount,
      double fullCount,
      double totalBlobs,
      double nmethods,
      double adapters,
      List<Heap> heaps) {}

  private CodeCacheStateParser() {}

  public static CodeCacheState parse(String text) {
    String body = text == null ? "" : text;
    Boolean enabled = null;
    String reason = null;
    Matcher status = STATUS.matcher(body);
    if (status.find()) {
      enabled = status.group(1).toLowerCase(Locale.ROOT).equals("enabled");
      reason = status.group(2);
    }
    List<Heap> heaps = new ArrayList<>();
    Matcher heap = HEAP.matcher(body);
    while (heap.find()) {
      heaps.add(
          new Heap(
              heap.group(1),
              kb(heap.group(2)),
              kb(heap.group(3)),
              kb(heap.group(4)),
              kb(heap.group(5))));
    }
    return new CodeCacheState(
        enabled,
        reason,
        number(body, "stopped_count"),
        number(body, "restarted_count"),
        number(body, "full_count"),
        number(body, "total_blobs"),
        number(body, "nmethods"),
        number(body, "adapters"),
        List.copyOf(heaps));
  }

  private static long kb(String digits) {
    return Long.parseLong(digits) * 1024;
  }

  private static double number(String text, String key) {
    Matcher m = Pattern.compile("\\b" + key + "=(\\d+)").matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
  }
}
