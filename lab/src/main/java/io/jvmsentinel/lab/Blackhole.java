package io.jvmsentinel.lab;

/** Keeps results of the lab's work observable so the JIT cannot remove the work. */
final class Blackhole {

  private static volatile long sink;

  private Blackhole() {}

  static void consume(long value) {
    sink += value;
  }
}
