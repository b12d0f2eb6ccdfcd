package io.jvmsentinel.bench;

import io.jvmsentinel.daemon.lab.LabEvent;
import io.jvmsentinel.daemon.lab.LabProcess;
import io.jvmsentinel.daemon.lab.LabScenarios;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet section's lab JVMs: small quiet targets without remote JMX (the daemon finds them with
 * {@code --discover local} and attaches), each carrying this run's label on its command line so the
 * daemon's include filter matches only them. Closing the fleet stops every JVM it started.
 */
final class Fleet implements AutoCloseable {
  /** Small heaps, so 50 of them fit beside everyone else's work on the machine. */
  static final List<String> LAB_FLAGS = List.of("-Xmx48m", "-XX:+UseSerialGC");

  private final BenchContext context;
  private final String label;
  private final List<LabProcess> quiet = new ArrayList<>();
  private final List<LabProcess> all = new ArrayList<>();

  Fleet(BenchContext context, String label) {
    this.context = context;
    this.label = label;
    // The driver killed by a signal still stops its labs (a SIGKILL is left to
    // bench/fleet-scale.sh).
    Runtime.getRuntime().addShutdownHook(new Thread(this::close, "fleet-cleanup"));
  }

  String label() {
    return label;
  }

  /** Starts quiet labs ({@code idle}) until {@code count} are running. */
  synchronized void growTo(int count) throws IOException {
    while (quiet.size() < count) {
      quiet.add(start("idle", List.of(), e -> {}));
    }
  }

  synchronized List<LabProcess> quiet() {
    return List.copyOf(quiet);
  }

  /** Stops one quiet lab, so a storming one can take its place without changing the count. */
  synchronized void stopOneQuiet() {
    LabProcess lab = quiet.remove(quiet.size() - 1);
    lab.close();
  }

  /** A lab that storms ({@code thread-per-request}) after {@code delay}. */
  synchronized LabProcess startStorm(int rate, Duration delay, List<LabEvent> events)
      throws IOException {
    return start(
        "thread-per-request",
        List.of("--rate", Integer.toString(rate), "--delay", delay.toMillis() + "ms"),
        events::add);
  }

  /** The daemon's name for a discovered lab. */
  static String targetName(LabProcess lab) {
    return "LabMain-" + lab.pid();
  }

  private LabProcess start(
      String scenario, List<String> args, java.util.function.Consumer<LabEvent> events)
      throws IOException {
    List<String> labArgs = new ArrayList<>(args);
    labArgs.addAll(List.of("--label", label));
    LabProcess lab =
        LabScenarios.builder(scenario, context.options.labJavaHome(), labFeature())
            .classpath(context.options.jar().toString())
            .withoutJmxRemote()
            .jvmArgs(LAB_FLAGS.toArray(new String[0]))
            .args(labArgs.toArray(new String[0]))
            .onOutput(line -> LabEvent.parse(line).ifPresent(events))
            .build()
            .startReady(Duration.ofSeconds(90));
    all.add(lab);
    return lab;
  }

  private int labFeature() throws IOException {
    return BenchContext.feature(context.options.labJavaHome());
  }

  @Override
  public synchronized void close() {
    all.forEach(LabProcess::close);
    all.clear();
    quiet.clear();
  }
}
