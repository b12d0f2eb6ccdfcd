package io.jvmsentinel.collectors.jfr.compiler;

import java.nio.charset.StandardCharsets;

/**
 * Which (method, tier) pairs the JIT has compiled on this stream. Compiling a pair again is a
 * recompilation: the same code thrown away (made not entrant, flushed, unloaded) and compiled anew,
 * the signature of codecache churn. First-time compilation of new code, however heavy, never
 * counts.
 *
 * <p>Bounded whatever the target compiles: 64-bit hashes in an open-addressing table of 2^17 slots
 * (1 MB). At three quarters full it starts over, so the count may then miss recompilations for a
 * while, but never invents one (a hash collision, about one in 10^13 pairs, is the exception).
 *
 * <p>Not thread-safe: the stream thread owns it.
 */
final class CompiledMethods {
  private static final int SLOTS = 1 << 17;
  private static final int MAX_SIZE = SLOTS / 4 * 3;
  private final long[] table = new long[SLOTS];
  private int size;

  /** Records a compilation of {@code method} at {@code tier}; true if it was compiled before. */
  boolean compiledBefore(String method, long tier) {
    long hash = hash(method, tier);
    int slot = (int) (mix(hash) & (SLOTS - 1));
    while (table[slot] != 0) {
      if (table[slot] == hash) {
        return true;
      }
      slot = (slot + 1) & (SLOTS - 1);
    }
    if (size >= MAX_SIZE) {
      java.util.Arrays.fill(table, 0);
      size = 0;
      slot = (int) (mix(hash) & (SLOTS - 1));
    }
    table[slot] = hash;
    size++;
    return false;
  }

  void clear() {
    java.util.Arrays.fill(table, 0);
    size = 0;
  }

  int size() {
    return size;
  }

  /** FNV-1a over the UTF-8 bytes and the tier; never 0 (0 marks an empty slot). */
  private static long hash(String method, long tier) {
    long h = 0xcbf29ce484222325L;
    for (byte b : method.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    h = (h ^ tier) * 0x100000001b3L;
    return h == 0 ? 1 : h;
  }

  private static long mix(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    return h ^ (h >>> 33);
  }
}
