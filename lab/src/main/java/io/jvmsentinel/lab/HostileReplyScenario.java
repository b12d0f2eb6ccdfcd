package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A target that answers JMX with what no monitoring client should accept: it replaces the platform
 * {@code java.lang:type=Runtime} and {@code java.lang:type=Threading} MBeans with one whose every
 * attribute and operation returns either an object of a class of the lab's own ({@link Payload},
 * which announces itself on the reader's stderr when deserialized) or an array of {@value
 * #ARRAY_LENGTH} longs, or never returns at all (the calling RMI thread sleeps for good, while the
 * rest of the JVM and its JMX server answer). A client without a deserialization filter reads the
 * first two; a client without a timeout on every call waits for the third for ever.
 */
final class HostileReplyScenario implements Scenario {
  static final int ARRAY_LENGTH = 2_000_000;

  enum Reply {
    UNEXPECTED_CLASS,
    OVERSIZED_ARRAY,
    NEVER
  }

  private final Reply reply;

  HostileReplyScenario(Reply reply) {
    this.reply = reply;
  }

  @Override
  public String name() {
    switch (reply) {
      case UNEXPECTED_CLASS:
        return "hostile-reply-class";
      case OVERSIZED_ARRAY:
        return "hostile-reply-array";
      default:
        return "hostile-reply-hang";
    }
  }

  @Override
  public String description() {
    switch (reply) {
      case UNEXPECTED_CLASS:
        return "answers every Runtime and Threading JMX read with an object of a lab class";
      case OVERSIZED_ARRAY:
        return "answers every Runtime and Threading JMX read with an array of "
            + ARRAY_LENGTH
            + " longs";
      default:
        return "never answers a Runtime or Threading JMX read (the call sleeps for good)";
    }
  }

  @Override
  public void run(LabLog log) throws InterruptedException {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      for (String name : new String[] {"java.lang:type=Runtime", "java.lang:type=Threading"}) {
        ObjectName objectName = new ObjectName(name);
        server.unregisterMBean(objectName);
        server.registerMBean(new HostileMBean(reply), objectName);
      }
    } catch (JMException e) {
      throw new IllegalStateException("cannot replace the platform MBeans", e);
    }
    log.onset(name());
    Thread.sleep(Long.MAX_VALUE);
  }

  /** What a reader finds in every reply. */
  public static final class Payload implements Serializable {
    private static final long serialVersionUID = 1L;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      System.err.println("LAB hostile payload deserialized");
    }
  }

  private static final class HostileMBean extends AnsweringMBean {
    private final Reply reply;

    HostileMBean(Reply reply) {
      this.reply = reply;
    }

    @Override
    Object answer(String attribute) {
      if (reply == Reply.NEVER) {
        try {
          Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return null;
      }
      return reply == Reply.UNEXPECTED_CLASS ? new Payload() : new long[ARRAY_LENGTH];
    }
  }
}
