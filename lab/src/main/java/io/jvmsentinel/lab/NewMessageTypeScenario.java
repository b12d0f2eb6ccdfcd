package io.jvmsentinel.lab;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A healthy message-processing service whose traffic gains a new message type long after warm-up,
 * as when a release or a new client starts sending one: the 8 workers pass every request's message
 * ({@code OrderPlaced}, the only type so far) through a {@link MessagePipeline} of {@value
 * MessagePipeline#STAGES} stages, whose compiled code inlines that type's method behind a type
 * check. After {@code --pause} (default {@value #DEFAULT_PAUSE_MINUTES} min, past the daemon's
 * warm-up) a new client sends {@code OrderAmended} messages, {@code --rate} a second (default
 * {@value #DEFAULT_RATE}); {@code --phase} later (default 60 s) also {@code OrderDisputed}. Each
 * new type fails every stage's type check: uncommon traps ({@code class_check}) deoptimise the
 * stages until the JIT recompiles them for the types they now see. A change of traffic done once,
 * not a deoptimisation storm. Onsets {@code steady}, then {@code new-type} with its number.
 */
final class NewMessageTypeScenario implements Scenario {

  static final long DEFAULT_PAUSE_MINUTES = 4;
  static final int DEFAULT_RATE = 1;
  static final Duration DEFAULT_PHASE = Duration.ofSeconds(60);

  private final LabOptions options;
  private final Duration pause;
  private final Duration phase;
  private final int rate;

  NewMessageTypeScenario(LabOptions options) {
    this.options = options;
    this.pause = options.pause(Duration.ofMinutes(DEFAULT_PAUSE_MINUTES));
    this.phase = options.phase(DEFAULT_PHASE);
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "new-message-type";
  }

  @Override
  public String description() {
    return "healthy message pipeline of "
        + MessagePipeline.STAGES
        + " stages; after --pause (default "
        + DEFAULT_PAUSE_MINUTES
        + "m) a new message type --rate a second (default "
        + DEFAULT_RATE
        + "), a second one --phase later (default 60s)";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    MessagePipeline pipeline = new MessagePipeline();
    LongSupplier placed = new OrderPlaced();
    Thread service =
        Phases.startInBackground(
            new HealthyScenario(options, seed -> CpuWork.request(seed) + pipeline.process(placed)),
            log);
    Thread amended = null;
    Thread disputed = null;
    try {
      Thread.sleep(pause.toMillis());
      log.onset("new-type", "number", 1, "type", "OrderAmended", "rate", rate);
      amended = newClient(pipeline, new OrderAmended(), "lab-client-amended");
      Thread.sleep(phase.toMillis());
      log.onset("new-type", "number", 2, "type", "OrderDisputed", "rate", rate);
      disputed = newClient(pipeline, new OrderDisputed(), "lab-client-disputed");
      service.join();
    } finally {
      service.interrupt();
      for (Thread client : new Thread[] {amended, disputed}) {
        if (client != null) {
          client.interrupt();
        }
      }
    }
  }

  /** A client sending messages of one type through the pipeline, {@code rate} a second. */
  private Thread newClient(MessagePipeline pipeline, LongSupplier message, String name) {
    Thread client =
        LabThreads.daemon(
            name,
            () -> {
              long sink = 0;
              try {
                while (!Thread.currentThread().isInterrupted()) {
                  sink += pipeline.process(message);
                  Thread.sleep(1_000 / rate);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              Blackhole.consume(sink);
            });
    client.start();
    return client;
  }

  /** The message type the service has always had. */
  static final class OrderPlaced implements LongSupplier {
    @Override
    public long getAsLong() {
      return 17;
    }
  }

  /** The first new type. */
  static final class OrderAmended implements LongSupplier {
    @Override
    public long getAsLong() {
      return 23;
    }
  }

  /** The second new type. */
  static final class OrderDisputed implements LongSupplier {
    @Override
    public long getAsLong() {
      return 29;
    }
  }
}
