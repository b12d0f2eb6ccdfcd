package io.jvmsentinel.daemon.alert;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which lock contention signals a target gives now and, for each one it lacks, why: shown in {@code
 * /api/v1/targets} and in the LockContention evidence, so a JMX-only target (JDK 11 and older) says
 * what it cannot show instead of looking merely quiet. Thread states, BLOCKED counts and the
 * lock-holder dump are JMX and work on every JDK; blocked time by lock, blocked sites, owners and
 * parks need the JFR stream; the JMX total blocked time needs thread contention monitoring, which
 * only the target can turn on (the daemon changes nothing in it).
 *
 * @param jfr whether the JFR stream delivers contention events now
 * @param jfrUnavailable why it does not (the stream's own reason); null while it does
 * @param blockedTime whether the JMX blocked time is measured; null before the first thread poll
 */
public record ContentionSignals(boolean jfr, String jfrUnavailable, Boolean blockedTime) {

  /** The signals this target gives, in the API's words. */
  public List<String> available() {
    List<String> names = new ArrayList<>(List.of("threadStates", "blockedThreads", "lockHolder"));
    if (Boolean.TRUE.equals(blockedTime)) {
      names.add("blockedTime");
    }
    if (jfr) {
      names.addAll(List.of("blockedTimeByLock", "blockedSites", "owners", "parks"));
    }
    return names;
  }

  /** Each signal this target lacks, with why; empty when it gives them all. */
  public Map<String, String> missing() {
    Map<String, String> missing = new LinkedHashMap<>();
    if (!jfr) {
      String why = "; no JFR stream: " + (jfrUnavailable == null ? "not started" : jfrUnavailable);
      missing.put(
          "blockedTimeByLock",
          "time blocked per lock class needs JFR jdk.JavaMonitorEnter; LockContention judges the"
              + " JMX BLOCKED thread count instead"
              + why);
      missing.put(
          "blockedSites",
          "the code where threads block, with stacks, needs JFR stack traces" + why);
      missing.put(
          "owners",
          "the threads that held the lock before each waiter needs JFR previousOwner" + why);
      missing.put(
          "parks",
          "waits on java.util.concurrent locks (JFR jdk.ThreadPark) are WAITING, not BLOCKED, in"
              + " JMX thread states, so they go uncounted"
              + why);
    }
    if (blockedTime == null) {
      missing.put("blockedTime", "the target's threads have not been read yet");
    } else if (!blockedTime) {
      missing.put(
          "blockedTime",
          "JMX blocked time is -1 while thread contention monitoring is off in the target; the"
              + " daemon never turns it on (the service can:"
              + " ThreadMXBean.setThreadContentionMonitoringEnabled(true))");
    }
    return missing;
  }

  /** {@code {"available": [...], "missing": {signal: why}}}. */
  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("available", available());
    json.put("missing", missing());
    return json;
  }
}
