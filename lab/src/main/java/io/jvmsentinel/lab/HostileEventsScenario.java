package io.jvmsentinel.lab;

import jdk.jfr.Event;
import jdk.jfr.Name;

/**
 * A target that forges JFR events: any application may declare an event under the name of one of
 * the JDK's own ({@code jdk.ThreadStart}, {@code jdk.TLSHandshake}, ...) with fields of its own
 * choosing, and a stream subscribed by name delivers both. The forgeries here lack the JDK's fields
 * or carry them with other types (a thread as text, a peer host as a number, a method as text),
 * {@code --rate} of each per second (default {@value #DEFAULT_RATE}).
 */
final class HostileEventsScenario implements Scenario {
  static final int DEFAULT_RATE = 200;

  private final int rate;

  HostileEventsScenario(LabOptions options) {
    this.rate = options.rate(DEFAULT_RATE);
  }

  @Override
  public String name() {
    return "hostile-events";
  }

  @Override
  public String description() {
    return "commits its own events under seven JDK event names (thread start and end, TLS"
        + " handshake, deoptimisation, compilation, code cache full, monitor enter) with fields"
        + " missing or retyped, --rate of each per second (default "
        + DEFAULT_RATE
        + ")";
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    log.onset(name(), "rate", rate);
    RateLoop.run(
        rate,
        sequence -> {
          new ForgedThreadStart().commit();
          new ForgedThreadEnd().commit();
          new ForgedTlsHandshake().commit();
          new ForgedDeoptimization().commit();
          new ForgedCompilation().commit();
          new ForgedCodeCacheFull().commit();
          new ForgedMonitorEnter().commit();
        });
  }

  @Name("jdk.ThreadStart")
  static final class ForgedThreadStart extends Event {
    String thread = "\r\nnot a thread";
    long parentThread = -1;
  }

  @Name("jdk.ThreadEnd")
  static final class ForgedThreadEnd extends Event {}

  @Name("jdk.TLSHandshake")
  static final class ForgedTlsHandshake extends Event {
    long peerHost = Long.MIN_VALUE;
    String peerPort = "|#forged:tag";
    boolean protocolVersion = true;
  }

  @Name("jdk.Deoptimization")
  static final class ForgedDeoptimization extends Event {
    String method = "not.a.Method";
    long reason = 7;
  }

  @Name("jdk.Compilation")
  static final class ForgedCompilation extends Event {
    String compiler = "c9";
    String compileLevel = "high";
    double compileId = Double.NaN;
  }

  @Name("jdk.CodeCacheFull")
  static final class ForgedCodeCacheFull extends Event {
    String codeBlobType = "\u202Eevil";
    double reservedTopAddress = Double.POSITIVE_INFINITY;
    long startAddress = -1;
  }

  @Name("jdk.JavaMonitorEnter")
  static final class ForgedMonitorEnter extends Event {
    String monitorClass = "not a class";
    int previousOwner = 3;
  }
}
