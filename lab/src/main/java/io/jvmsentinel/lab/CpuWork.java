package io.jvmsentinel.lab;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * Deterministic CPU work over several distinct methods, so the JIT has a realistic variety of hot
 * code to compile. Fixed amounts of work per call (not time-based): results are returned so the JIT
 * cannot remove the work.
 */
final class CpuWork {

  private CpuWork() {}

  /** One "request" of a steady service: a little of everything, allocating tens of KB. */
  static long request(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long result = sortNumbers(random, 2_000);
    result += countWords(random, 300);
    result += checksum(random, 16 * 1024);
    result += sieve(2_000 + (int) (seed & 511));
    result += multiply(random, 12);
    result += formatRecords(random, 40);
    return result;
  }

  /** A very small unit of work, for short-lived threads. */
  static long tiny(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    return checksum(random, 256) + sieve(200);
  }

  static long sortNumbers(SplittableRandom random, int count) {
    int[] numbers = random.ints(count).toArray();
    Arrays.sort(numbers);
    return numbers[count / 2];
  }

  static long countWords(SplittableRandom random, int count) {
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < count; i++) {
      counts.merge("word" + random.nextInt(64), 1, Integer::sum);
    }
    return counts.size();
  }

  static long checksum(SplittableRandom random, int size) {
    byte[] data = new byte[size];
    random.ints(size / 4).forEach(value -> data[Math.abs(value % size)] = (byte) value);
    CRC32 crc = new CRC32();
    crc.update(data, 0, data.length);
    return crc.getValue();
  }

  static long sieve(int limit) {
    boolean[] composite = new boolean[limit + 1];
    long primes = 0;
    for (int i = 2; i <= limit; i++) {
      if (!composite[i]) {
        primes++;
        for (long j = (long) i * i; j <= limit; j += i) {
          composite[(int) j] = true;
        }
      }
    }
    return primes;
  }

  static long multiply(SplittableRandom random, int size) {
    double[][] a = new double[size][size];
    double[][] b = new double[size][size];
    for (int i = 0; i < size; i++) {
      for (int j = 0; j < size; j++) {
        a[i][j] = random.nextDouble();
        b[i][j] = random.nextDouble();
      }
    }
    double trace = 0;
    for (int i = 0; i < size; i++) {
      for (int k = 0; k < size; k++) {
        trace += a[i][k] * b[k][i];
      }
    }
    return (long) (trace * 1000);
  }

  static long formatRecords(SplittableRandom random, int count) {
    List<String> lines = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      lines.add(
          String.format(
              "id=%d name=user%d score=%.2f", i, random.nextInt(1000), random.nextDouble()));
    }
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8).length;
  }
}
