package io.jvmsentinel.lab;

/**
 * One behaviour of the lab target JVM. A scenario runs on the lab's main thread until that thread
 * is interrupted (at the end of {@code --duration}) and announces each phase with {@link
 * LabLog#onset}.
 */
public interface Scenario {

  /** The name used on the command line, e.g. {@code thread-per-request}. */
  String name();

  /** One line for the usage text. */
  String description();

  /** Runs until interrupted; threads it starts must be daemon threads or stop on interrupt. */
  void run(LabLog log) throws InterruptedException;
}
