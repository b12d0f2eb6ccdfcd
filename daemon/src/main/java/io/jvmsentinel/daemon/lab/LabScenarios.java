package io.jvmsentinel.daemon.lab;

import java.nio.file.Path;
import java.util.List;

/**
 * The JVM flags each lab scenario needs, per target JDK feature version, so tests and the demo
 * launch scenarios the way they were measured (JDK 17.0.15 and Temurin 25.0.3, G1, 2 CPUs).
 *
 * <ul>
 *   <li>{@code codecache-churn}: a 4 MB unsegmented cache ({@code -XX:ReservedCodeCacheSize=4m},
 *       one {@code CodeCache} pool). With flushing on, the JVM holds occupancy at about 55% (17,
 *       sweeper) to 73% (25, code cache GCs) of it while compiling and unloading continuously.
 *   <li>{@code codecache-full}: a tiny segmented cache without flushing ({@code
 *       -XX:+SegmentedCodeCache -XX:ReservedCodeCacheSize=8m -XX:-UseCodeCacheFlushing}): a code
 *       heap fills and compilation is disabled within about 5 s (17) and 2.5 s (25) and stays
 *       disabled. With flushing on, 17's sweeper keeps the cache from filling and 21+ may restart
 *       the compiler after unloading.
 *   <li>{@code churn-from-boot}: an 8 MB unsegmented cache ({@code -XX:ReservedCodeCacheSize=8m}),
 *       the size of issue 12's report.
 *   <li>{@code gc-pressure}, {@code gc-at-startup}: {@code -Xmx64m}; gc-pressure keeps 60% of it
 *       live.
 *   <li>{@code mixed}, {@code batch-gc-burst}: {@code -Xmx128m}, so their gc-pressure phase has a
 *       bounded heap.
 *   <li>{@code gc-freeze}, {@code periodic-full-gc}: {@code -XX:+UseSerialGC -Xms3g -Xmx3g}: each
 *       full collection of their 1.2 GB live set stops the JVM for about a second (0.75 s measured
 *       on JDK 17, 2 CPUs).
 *   <li>{@code jmx-outage}: {@code -Xmx64m}, so its garbage makes a young collection every second
 *       or so.
 *   <li>{@code incidents-at-once}: {@code -Xmx256m}: its gc-pressure keeps 60% of it live beside
 *       three other incidents.
 * </ul>
 *
 * Other scenarios need no flags.
 */
public final class LabScenarios {

  private LabScenarios() {}

  /** The JVM flags {@code scenario} needs on a target of JDK {@code feature} (11 and later). */
  public static List<String> jvmFlags(String scenario, int feature) {
    if (feature < 11) {
      throw new IllegalArgumentException("the lab needs JDK 11 or later, not " + feature);
    }
    switch (scenario) {
      case "codecache-churn":
        return List.of("-XX:ReservedCodeCacheSize=4m");
      case "codecache-full":
        return List.of(
            "-XX:+SegmentedCodeCache", "-XX:ReservedCodeCacheSize=8m", "-XX:-UseCodeCacheFlushing");
      case "churn-from-boot":
        return List.of("-XX:ReservedCodeCacheSize=8m");
      case "gc-pressure":
      case "gc-at-startup":
      case "jmx-outage":
        return List.of("-Xmx64m");
      case "mixed":
      case "batch-gc-burst":
        return List.of("-Xmx128m");
      case "incidents-at-once":
        return List.of("-Xmx256m");
      case "gc-freeze":
      case "periodic-full-gc":
        return List.of("-XX:+UseSerialGC", "-Xms3g", "-Xmx3g");
      case "gc-during-churn":
        return List.of("-XX:ReservedCodeCacheSize=4m", "-Xmx128m");
      default:
        return List.of();
    }
  }

  /** A builder for {@code scenario} on {@code javaHome} (JDK {@code feature}), flags included. */
  public static LabSpec.Builder builder(String scenario, Path javaHome, int feature) {
    return LabSpec.builder(scenario)
        .javaHome(javaHome)
        .jvmArgs(jvmFlags(scenario, feature).toArray(new String[0]));
  }

  /** A builder for {@code scenario} on the running JVM, flags included. */
  public static LabSpec.Builder builder(String scenario) {
    return builder(scenario, Path.of(System.getProperty("java.home")), Runtime.version().feature());
  }
}
