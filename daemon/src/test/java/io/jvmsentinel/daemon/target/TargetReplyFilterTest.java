package io.jvmsentinel.daemon.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;

/**
 * What a JMX reply is made of passes the filter; other classes, oversized arrays and deep graphs do
 * not. Each case goes through a real serialization round trip with the filter on the stream.
 */
class TargetReplyFilterTest {
  private static final MBeanServer PLATFORM = ManagementFactory.getPlatformMBeanServer();

  @Test
  void passesWhatThePlatformMBeansAnswer() throws Exception {
    ObjectName threading = new ObjectName("java.lang:type=Threading");
    long[] ids = (long[]) PLATFORM.getAttribute(threading, "AllThreadIds");
    // dumpAllThreads with stacks and monitors: the largest reply the daemon asks for.
    CompositeData[] dump =
        (CompositeData[])
            PLATFORM.invoke(
                threading,
                "dumpAllThreads",
                new Object[] {true, false},
                new String[] {"boolean", "boolean"});
    AttributeList runtime =
        PLATFORM.getAttributes(
            new ObjectName("java.lang:type=Runtime"),
            new String[] {"VmName", "InputArguments", "StartTime", "SystemProperties"});
    List<Object> replies =
        List.of(
            ids,
            dump,
            runtime,
            PLATFORM.getMBeanInfo(threading),
            PLATFORM.getMBeanInfo(new ObjectName("java.lang:type=Memory")),
            PLATFORM.queryNames(new ObjectName("java.lang:*"), null),
            new Attribute("x", new BigDecimal("1.5")),
            new RuntimeMBeanException(
                new IllegalStateException("no", new java.io.IOException("cause")), "failed"),
            Map.of("k", List.of(1, 2L, 3.0, "s", true)));
    for (Object reply : replies) {
      assertThat(roundTrip(reply)).isNotNull();
    }
  }

  @Test
  void refusesAClassNoReplyNeeds() {
    assertThatThrownBy(
            () -> roundTrip(new AttributeList(List.of(new Attribute("a", new Gadget())))))
        .isInstanceOf(InvalidClassException.class)
        .hasMessageContaining("REJECTED");
    assertThat(Gadget.readCount).isZero();
  }

  @Test
  void refusesAnOversizedArray() throws Exception {
    assertThatThrownBy(() -> roundTrip(new long[(int) TargetReplyFilter.MAX_ARRAY + 1]))
        .isInstanceOf(InvalidClassException.class);
    assertThat(roundTrip(new byte[1024 * 1024])).isNotNull(); // a full JFR block
  }

  @Test
  void refusesADeepGraph() {
    List<Object> nested = new ArrayList<>();
    List<Object> inner = nested;
    for (int i = 0; i < TargetReplyFilter.MAX_DEPTH + 10; i++) {
      List<Object> next = new ArrayList<>();
      inner.add(next);
      inner = next;
    }
    assertThatThrownBy(() -> roundTrip(nested)).isInstanceOf(InvalidClassException.class);
  }

  @Test
  void refusesClassesOutsideTheReplyPackages() {
    Set<Object> set = new HashSet<>();
    set.add(java.util.concurrent.TimeUnit.SECONDS); // java.util.concurrent: not a reply's package
    assertThatThrownBy(() -> roundTrip(set)).isInstanceOf(InvalidClassException.class);
  }

  private static Object roundTrip(Object value) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      in.setObjectInputFilter(new TargetReplyFilter());
      return in.readObject();
    }
  }

  static final class Gadget implements Serializable {
    private static final long serialVersionUID = 1L;
    static int readCount;

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      readCount++;
    }
  }
}
