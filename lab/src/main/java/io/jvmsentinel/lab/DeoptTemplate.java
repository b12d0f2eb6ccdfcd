package io.jvmsentinel.lab;

import java.util.function.LongUnaryOperator;

/**
 * Code whose compiled form is invalidated on purpose, for {@link DeoptStormScenario}. Phase 0
 * trains the JIT with one receiver type, positive numbers, non-null strings and in-bounds indexes
 * until the methods are compiled with those assumptions; phase 1 breaks each of them, so the
 * compiled code hits uncommon traps ({@code class_check}, {@code unstable_if}, {@code null_check},
 * {@code range_check}) and is deoptimised and made not entrant. Each round uses a fresh copy, so
 * each round deoptimises anew. Public only because copies live in their own runtime package.
 */
public final class DeoptTemplate implements LongUnaryOperator {

  interface Shape {
    double area();
  }

  static final class Circle implements Shape {
    @Override
    public double area() {
      return 3.14;
    }
  }

  static final class Square implements Shape {
    @Override
    public double area() {
      return 4;
    }
  }

  static final class Triangle implements Shape {
    @Override
    public double area() {
      return 0.5;
    }
  }

  static final int TRAINING_CALLS = 60_000;

  /** Fresh copies of this template with its nested classes, each deoptimising anew. */
  public static GeneratedCode generatedCode() {
    return new GeneratedCode(
        DeoptTemplate.class, Shape.class, Circle.class, Square.class, Triangle.class);
  }

  private final int[] values = new int[8];
  private double sink;

  @Override
  public long applyAsLong(long phase) {
    if (phase == 0) {
      Shape circle = new Circle();
      for (int i = 0; i < TRAINING_CALLS; i++) {
        sink += area(circle) + sign(i) + length("abc") + at(values, i & 7);
      }
      return (long) sink;
    }
    sink += area(new Square()) + area(new Triangle()) + sign(-1);
    try {
      sink += length(null);
    } catch (NullPointerException expected) {
      sink++;
    }
    try {
      sink += at(values, 99);
    } catch (ArrayIndexOutOfBoundsException expected) {
      sink++;
    }
    return (long) sink;
  }

  static double area(Shape shape) {
    return shape.area();
  }

  static int sign(int x) {
    if (x < 0) {
      return -1;
    }
    return 1;
  }

  static int length(String s) {
    return s.length();
  }

  static int at(int[] a, int i) {
    return a[i];
  }
}
