package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.SignalSample;
import io.jvmsentinel.daemon.alert.SignalWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a target without JFR shows of who starts its threads: the name patterns of the threads JMX
 * first saw alive ({@code pool-#-thread-#}), and the starts that ended before any read saw them
 * (one thread per request or task mostly ends unseen). ThreadStorm holds these kinds, half window
 * against half window, as it holds creator sites where JFR gives stacks.
 */
final class ThreadKinds {
  /** The kind of the starts no read saw alive: short-lived threads of whatever creator. */
  static final String ENDED_UNSEEN = "(ended before a read saw them)";

  private ThreadKinds() {}

  /**
   * The starts of each kind in the samples after {@code from} up to {@code to}; the starts of a
   * sample are its increase over the sample before it, both of {@code source}.
   */
  static Map<String, Long> between(
      List<SignalSample> samples, Instant from, Instant to, Predicate<SignalSample> source) {
    Map<String, Long> kinds = new HashMap<>();
    long started = 0;
    long seen = 0;
    for (int i = 1; i < samples.size(); i++) {
      SignalSample sample = samples.get(i);
      SignalSample previous = samples.get(i - 1);
      if (!sample.at().isAfter(from) || sample.at().isAfter(to)) {
        continue;
      }
      if (source.test(sample) && source.test(previous)) {
        started += Math.max(0, Math.round(sample.threadStarts() - previous.threadStarts()));
      }
      for (Map.Entry<String, Long> kind : sample.details().newThreads().entrySet()) {
        kinds.merge(kind.getKey(), kind.getValue(), Long::sum);
        seen += kind.getValue();
      }
    }
    if (started > seen) {
      kinds.merge(ENDED_UNSEEN, started - seen, Long::sum);
    }
    return kinds;
  }

  /** The {@code n} kinds with the most starts, busiest first, as {@code "pool-#-thread-# x200"}. */
  static List<String> top(Map<String, Long> kinds, int n) {
    return kinds.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .limit(n)
        .map(kind -> kind.getKey() + " x" + kind.getValue())
        .toList();
  }

  /** The kinds of the last {@code window}'s older and newer halves. */
  static List<Map<String, Long>> halves(
      SignalWindow history, Duration window, Predicate<SignalSample> source) {
    // Twice the window: the sample before the window's first one gives that one's starts.
    List<SignalSample> samples = history.window(window.multipliedBy(2));
    if (samples.isEmpty()) {
      return List.of(Map.of(), Map.of());
    }
    WindowHalves halves = WindowHalves.endingAtLatest(samples, window);
    return List.of(
        between(samples, halves.from(), halves.split(), source),
        between(samples, halves.split(), halves.latest(), source));
  }
}
