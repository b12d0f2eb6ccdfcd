package io.jvmsentinel.collectors.jmx;

import static org.awaitility.Awaitility.await;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.GcInfo;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.TabularDataSupport;
import javax.management.openmbean.TabularType;

/**
 * GC notifications as a target sends them. A {@link GcInfo} cannot be constructed, so the first
 * real collection of this JVM gives its open type, and notifications of any collector, with any
 * pools and usages, are built in that type: what the poller receives over JMX is exactly this
 * CompositeData.
 */
final class GcNotifications {
  private static final long MB = 1024 * 1024;
  private static GcInfo real;

  private GcNotifications() {}

  /** Used MB before and after one collection, for one pool with a maximum of {@code maxMb}. */
  record Pool(String name, long beforeMb, long afterMb, long maxMb) {}

  static Notification notification(String gc, String action, String cause, GcInfo info) {
    CompositeData data =
        new GarbageCollectionNotificationInfo(gc, action, cause, info).toCompositeData(null);
    Notification notification =
        new Notification(
            GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION, "test", 1);
    notification.setUserData(data);
    return notification;
  }

  /** Collection number {@code id} of one collector, lasting {@code millis}, over {@code pools}. */
  static Notification notification(
      String gc, String action, String cause, long id, long millis, Pool... pools)
      throws Exception {
    return notification(gc, action, cause, gcInfo(id, millis, pools));
  }

  static synchronized GcInfo realGcInfo() throws Exception {
    if (real == null) {
      real = collectOnce();
    }
    return real;
  }

  private static GcInfo gcInfo(long id, long millis, Pool... pools) throws Exception {
    CompositeData template = realGcInfo().toCompositeData(null);
    CompositeType type = template.getCompositeType();
    Map<String, Object> items = new LinkedHashMap<>();
    for (String key : type.keySet()) {
      items.put(key, template.get(key)); // e.g. HotSpot's GcThreadCount, kept as it was
    }
    items.put("id", id);
    items.put("startTime", 1_000L * id);
    items.put("endTime", 1_000L * id + millis);
    items.put("duration", millis);
    TabularType usages = (TabularType) type.getType("memoryUsageBeforeGc");
    items.put("memoryUsageBeforeGc", usages(usages, pools, true));
    items.put("memoryUsageAfterGc", usages(usages, pools, false));
    return GcInfo.from(
        new CompositeDataSupport(
            type, items.keySet().toArray(String[]::new), items.values().toArray()));
  }

  private static TabularDataSupport usages(TabularType type, Pool[] pools, boolean before)
      throws OpenDataException {
    CompositeType row = type.getRowType();
    CompositeType usage = (CompositeType) row.getType("value");
    TabularDataSupport table = new TabularDataSupport(type);
    for (Pool pool : pools) {
      long used = (before ? pool.beforeMb() : pool.afterMb()) * MB;
      long max = pool.maxMb() < 0 ? -1 : pool.maxMb() * MB;
      CompositeData value =
          new CompositeDataSupport(
              usage,
              new String[] {"init", "used", "committed", "max"},
              new Object[] {0L, used, used, max});
      table.put(
          new CompositeDataSupport(
              row, new String[] {"key", "value"}, new Object[] {pool.name(), value}));
    }
    return table;
  }

  private static GcInfo collectOnce() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    AtomicReference<GcInfo> seen = new AtomicReference<>();
    NotificationListener listener =
        (notification, handback) ->
            seen.compareAndSet(
                null,
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
                    .getGcInfo());
    Set<ObjectName> collectors =
        server.queryNames(new ObjectName("java.lang:type=GarbageCollector,name=*"), null);
    for (ObjectName name : collectors) {
      server.addNotificationListener(name, listener, null, null);
    }
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> {
                System.gc();
                return seen.get() != null;
              });
    } finally {
      for (ObjectName name : collectors) {
        server.removeNotificationListener(name, listener);
      }
    }
    return seen.get();
  }
}
