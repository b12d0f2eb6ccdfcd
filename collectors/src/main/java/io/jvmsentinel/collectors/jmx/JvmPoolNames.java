package io.jvmsentinel.collectors.jmx;

import java.util.Set;
import javax.management.ObjectName;

/**
 * The names under which the JVMs themselves register their memory and buffer pools. Any code in a
 * target may register more MBeans under {@code java.lang:type=MemoryPool} or {@code
 * java.nio:type=BufferPool}; the pollers read these names first, so made-up pools never crowd out
 * the real ones. Both lists are fixed, so they also bound how many pools a target gets read under
 * these names.
 *
 * <p>HotSpot's names were read from {@code ManagementFactory} on JDK 11.0.13, 17.0.15, 21.0.8 and
 * 25.0.3 under every collector (G1, Parallel, Serial, CMS on 11, ZGC single and generational,
 * Shenandoah single and generational on 25, Epsilon) and with an unsegmented code cache; JDK 8
 * calls its code cache {@code Code Cache}. OpenJ9's are those of its gencon, balanced, metronome
 * and optthruput policies ({@code runtime/jcl/common/mgmtinit.c} and its GC's pool names).
 */
final class JvmPoolNames {
  static final Set<String> MEMORY =
      Set.of(
          // HotSpot heap pools, by collector
          "G1 Eden Space",
          "G1 Survivor Space",
          "G1 Old Gen",
          "PS Eden Space",
          "PS Survivor Space",
          "PS Old Gen",
          "Eden Space",
          "Survivor Space",
          "Tenured Gen",
          "Par Eden Space",
          "Par Survivor Space",
          "CMS Old Gen",
          "ZHeap",
          "ZGC Young Generation",
          "ZGC Old Generation",
          "Shenandoah",
          "Shenandoah Young Gen",
          "Shenandoah Old Gen",
          "Epsilon Heap",
          // HotSpot non-heap pools
          "Metaspace",
          "Compressed Class Space",
          "CodeHeap 'non-nmethods'",
          "CodeHeap 'profiled nmethods'",
          "CodeHeap 'non-profiled nmethods'",
          "CodeCache",
          "Code Cache",
          // OpenJ9
          "nursery-allocate",
          "nursery-survivor",
          "tenured",
          "tenured-SOA",
          "tenured-LOA",
          "balanced-reserved",
          "balanced-eden",
          "balanced-survivor",
          "balanced-old",
          "JavaHeap",
          "Java heap",
          "class storage",
          "miscellaneous non-heap storage",
          "JIT code cache",
          "JIT data cache");

  static final Set<String> BUFFER = Set.of("direct", "mapped", "mapped - 'non-volatile memory'");

  private JvmPoolNames() {}

  /** Whether {@code name} is registered under one of {@code names} (its {@code name} key). */
  static boolean registeredAs(ObjectName name, Set<String> names) {
    return names.contains(name.getKeyProperty("name"));
  }
}
