package io.jvmsentinel.daemon.target;

import java.io.ObjectInputFilter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's one Java deserialization filter (JEP 290), set process-wide at start. Every JMX
 * reply over RMI is a Java-serialized object graph written by the target, and targets are other
 * people's processes: without a filter, a target can send any {@code Serializable} class on the
 * daemon's class path (a gadget chain in one of its libraries) or a graph that exhausts its heap (a
 * billion-entry array, a deeply nested set). RMI reads each reply with a new stream, and the JDK
 * gives every stream the process-wide filter, so this one filter covers every remote call,
 * notification fetch, registry lookup and JFR block read.
 *
 * <p>Allowed: what a JMX reply is made of. Boxed values, strings, collections and maps ({@code
 * java.lang}, {@code java.util}, not their sub-packages: no {@code java.lang.reflect}, {@code
 * java.lang.invoke}), {@code BigInteger}/{@code BigDecimal}, JMX with its open types and its RMI
 * connector stubs ({@code javax.management.**}), RMI's own objects ({@code java.rmi.**}), the SSL
 * client socket factory a TLS target's stub carries, arrays of these and of primitives, and
 * exceptions from {@code java.*}/{@code javax.*} (a failed remote call sends one). Anything else is
 * refused and logged, and the call fails with an {@code UnmarshalException} (an {@code
 * IOException}: the session treats it as a failed read and reconnects with backoff).
 *
 * <p>Limits, per reply: a JFR block read is at most 1 MiB ({@code ChunkFeed.MAX_BLOCK_SIZE}) and
 * {@code getThreadInfo} returns one element per thread, hence {@value #MAX_ARRAY} entries; a {@code
 * dumpAllThreads} with stacks of a few thousand threads is the largest ordinary graph, well under
 * {@value #MAX_REFS} objects and {@value #MAX_BYTES} bytes; open types nest a few levels and
 * exception causes a few more, far below {@value #MAX_DEPTH}.
 */
public final class TargetReplyFilter implements ObjectInputFilter {
  static final long MAX_ARRAY = 1_100_000;
  static final long MAX_DEPTH = 64;
  static final long MAX_REFS = 4_000_000;
  static final long MAX_BYTES = 64L * 1024 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(TargetReplyFilter.class);
  private static final Set<String> PACKAGES = Set.of("java.lang", "java.util");
  private static final List<String> PACKAGE_TREES = List.of("javax.management.", "java.rmi.");
  private static final Set<String> CLASSES =
      Set.of(
          "java.math.BigInteger",
          "java.math.BigDecimal",
          // A TLS target's RMI stubs carry the client socket factory the client must use.
          "javax.rmi.ssl.SslRMIClientSocketFactory");
  // A refused target is reconnected with backoff and refused again: one line per thread (one
  // session thread per target) and kind of refusal every ten minutes says it.
  private static final long RELOG_NANOS = TimeUnit.MINUTES.toNanos(10);
  private static final int MAX_REMEMBERED = 1024;
  private static final Map<String, Long> LOGGED = new ConcurrentHashMap<>();
  private static boolean installed;

  /**
   * Sets the filter process-wide, once. When the operator has set one ({@code -Djdk.serialFilter}
   * or code before us), theirs is kept and said so: the JDK allows one.
   */
  public static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    if (ObjectInputFilter.Config.getSerialFilter() != null) {
      LOG.warn(
          "A process-wide deserialization filter is already set ({}); keeping it instead of the"
              + " daemon's allow-list for JMX replies",
          ObjectInputFilter.Config.getSerialFilter());
      return;
    }
    ObjectInputFilter.Config.setSerialFilter(new TargetReplyFilter());
  }

  @Override
  public Status checkInput(FilterInfo info) {
    if (info.arrayLength() > MAX_ARRAY) {
      return refused(
          "array", "an array of " + info.arrayLength() + " entries (limit " + MAX_ARRAY + ")");
    }
    if (info.depth() > MAX_DEPTH) {
      return refused("depth", "objects nested " + info.depth() + " deep (limit " + MAX_DEPTH + ")");
    }
    if (info.references() > MAX_REFS) {
      return refused("refs", info.references() + " objects (limit " + MAX_REFS + ")");
    }
    if (info.streamBytes() > MAX_BYTES) {
      return refused("bytes", info.streamBytes() + " bytes (limit " + MAX_BYTES + ")");
    }
    Class<?> type = info.serialClass();
    if (type == null) {
      return Status.UNDECIDED;
    }
    Class<?> element = type;
    while (element.isArray()) {
      element = element.getComponentType();
    }
    if (element.isPrimitive() || allowed(element)) {
      return Status.ALLOWED;
    }
    return refused("class", "class " + type.getName() + ", which no JMX reply needs");
  }

  static boolean allowed(Class<?> type) {
    String name = type.getName();
    return PACKAGES.contains(type.getPackageName())
        || PACKAGE_TREES.stream().anyMatch(name::startsWith)
        || CLASSES.contains(name)
        || (Throwable.class.isAssignableFrom(type)
            && (name.startsWith("java.") || name.startsWith("javax.")));
  }

  private static Status refused(String kind, String what) {
    String thread = Thread.currentThread().getName();
    long now = System.nanoTime();
    Long last = LOGGED.get(thread + "/" + kind);
    if (last != null && now - last < RELOG_NANOS) {
      return Status.REJECTED;
    }
    if (LOGGED.size() >= MAX_REMEMBERED) {
      LOGGED.clear();
    }
    LOGGED.put(thread + "/" + kind, now);
    LOG.warn(
        "Refused a reply from a target on thread '{}': it holds {}; the read fails and the target"
            + " is reconnected with backoff",
        thread,
        what);
    return Status.REJECTED;
  }
}
