package io.jvmsentinel.collectors.jfr.compiler;

import java.nio.charset.StandardCharsets;

/**
 * Which (method, tier) pairs the JIT has compiled on this stream. Compiling a pair again is a
 * recompilation: the same code thrown away (made not entrant, flushed, unloaded) and compiled anew,
 * the signature of codecache churn. First-time compilation of new code, however heavy, never
 * counts.
 *
 * <p>Bounded whatever the target compiles: 64-bit hashes in an open-addressing table that starts at
 * 2^10 slots (8 KB) and doubles at three quarters full up to 2^17 (1 MB), so a daemon watching 50
 * quiet targets does not hold 50 MB of empty slots (bench/fleet-scale.sh). Full at its largest, it
 * starts over, so the count may then miss recompilations for a while, but never invents one (a hash
 * collision, about one in 10^13 pairs, is the exception).
 *
 * <p>Not thread-safe: the stream thread owns it.
 */
final class CompiledMethods {
  static final int INITIAL_SLOTS = 1 << 10;
  static final int MAX_SLOTS = 1 << 17;
  private long[] table = new long[INITIAL_SLOTS];
  private int size;

  /** Records a compilation of {@code method} at {@code tier}; true if it was compiled before. */
  boolean compiledBefore(String method, long tier) {
    return seenBefore(hash(method, tier));
  }

  /**
   * Records a compilation of {@code method} of the class with JFR id {@code classId} at {@code
   * tier}; true if that class's method was compiled at that tier before.
   */
  boolean compiledBefore(long classId, String method, long tier) {
    long hash = (hash(method, tier) ^ classId) * 0x100000001b3L;
    return seenBefore(hash == 0 ? 1 : hash);
  }

  private boolean seenBefore(long hash) {
    int slot = find(table, hash);
    if (table[slot] == hash) {
      return true;
    }
    if (size >= table.length / 4 * 3) {
      if (table.length < MAX_SLOTS) {
        grow();
      } else {
        java.util.Arrays.fill(table, 0);
        size = 0;
      }
      slot = find(table, hash);
    }
    table[slot] = hash;
    size++;
    return false;
  }

  void clear() {
    table = new long[INITIAL_SLOTS];
    size = 0;
  }

  int size() {
    return size;
  }

  /** Slots in the table now. */
  int capacity() {
    return table.length;
  }

  private void grow() {
    long[] larger = new long[table.length * 2];
    for (long hash : table) {
      if (hash != 0) {
        larger[find(larger, hash)] = hash;
      }
    }
    table = larger;
  }

  /** The slot holding {@code hash}, or the empty slot where it would go. */
  private static int find(long[] table, long hash) {
    int mask = table.length - 1;
    int slot = (int) (mix(hash) & mask);
    while (table[slot] != 0 && table[slot] != hash) {
      slot = (slot + 1) & mask;
    }
    return slot;
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
