package io.jvmsentinel.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The driver's command line (bench/run passes the paths): {@code [--quick] [--rounds N] [--only
 * a,b] --root DIR --jar JAR --out DIR --lab-java HOME --daemon-java HOME [--exporter-classpath CP]
 * [--daemon-flag FLAG]... [--jvm-defaults] [--fleet-sizes 1,10,50] [--fleet-label L] [--name
 * PREFIX]}; {@code --daemon-flag} adds a JVM flag to the daemon's, for before/after measurements of
 * a tuning; {@code --jvm-defaults} starts the daemon without the container image's flags (no heap
 * cap: the JVM sizes its heap from the host's memory), as a user runs the jar by hand; {@code
 * --fleet-sizes} are the target counts of the {@code fleet} section and {@code --fleet-label} the
 * label on its lab JVMs' command lines (bench/fleet-scale.sh finds them by it to clean up); {@code
 * --name} the results' file prefix ({@code bench}).
 */
record BenchOptions(
    boolean quick,
    OptionalInt rounds,
    List<String> only,
    Path root,
    Path jar,
    Path out,
    Path labJavaHome,
    Path daemonJavaHome,
    Optional<String> exporterClasspath,
    List<String> extraDaemonFlags,
    boolean jvmDefaults,
    List<Integer> fleetSizes,
    Optional<String> fleetLabel,
    String name) {

  static BenchOptions parse(String... args) {
    boolean quick = false;
    OptionalInt rounds = OptionalInt.empty();
    List<String> only = new ArrayList<>();
    Path root = Path.of(".");
    Path jar = null;
    Path out = null;
    Path home = Path.of(System.getProperty("java.home"));
    Path labJava = home;
    Path daemonJava = home;
    Optional<String> exporter = Optional.empty();
    List<String> daemonFlags = new ArrayList<>();
    boolean jvmDefaults = false;
    List<Integer> fleetSizes = new ArrayList<>(List.of(1, 10, 50));
    Optional<String> fleetLabel = Optional.empty();
    String name = "bench";
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--quick" -> quick = true;
        case "--rounds" -> rounds = OptionalInt.of(Integer.parseInt(value(args, ++i, arg)));
        case "--only" -> only.addAll(List.of(value(args, ++i, arg).split(",")));
        case "--root" -> root = Path.of(value(args, ++i, arg));
        case "--jar" -> jar = Path.of(value(args, ++i, arg));
        case "--out" -> out = Path.of(value(args, ++i, arg));
        case "--lab-java" -> labJava = Path.of(value(args, ++i, arg));
        case "--daemon-java" -> daemonJava = Path.of(value(args, ++i, arg));
        case "--exporter-classpath" -> exporter = Optional.of(value(args, ++i, arg));
        case "--daemon-flag" -> daemonFlags.add(value(args, ++i, arg));
        case "--jvm-defaults" -> jvmDefaults = true;
        case "--fleet-sizes" -> {
          fleetSizes.clear();
          for (String size : value(args, ++i, arg).split(",")) {
            fleetSizes.add(Integer.parseInt(size.trim()));
          }
        }
        case "--fleet-label" -> fleetLabel = Optional.of(value(args, ++i, arg));
        case "--name" -> name = value(args, ++i, arg);
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    root = root.toAbsolutePath().normalize();
    return new BenchOptions(
        quick,
        rounds,
        List.copyOf(only),
        root,
        jar != null ? jar : root.resolve("daemon/target/jvm-sentinel.jar"),
        out != null ? out : root.resolve("bench/results"),
        labJava,
        daemonJava,
        exporter.filter(cp -> !cp.isBlank()),
        List.copyOf(daemonFlags),
        jvmDefaults,
        List.copyOf(fleetSizes),
        fleetLabel,
        name);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException("missing value for " + option);
    }
    return args[i];
  }
}
