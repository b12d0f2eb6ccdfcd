package io.jvmsentinel.daemon.jfr;

import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.jfr.handler.StackSampledHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The events whose stack traces follow the stream's sampling plan: every {@link
 * StackSampledHandler} that records stacks (thread starts, monitor enters, parks), so all of them
 * go stackless in the same pauses under load, not only the first. Applies the plan to the live
 * settings and tells the handlers.
 */
final class SampledStacks {
  private final List<StackSampledHandler> handlers;

  SampledStacks(List<JfrEventHandler> all) {
    this.handlers =
        all.stream()
            .filter(StackSampledHandler.class::isInstance)
            .map(StackSampledHandler.class::cast)
            .filter(h -> h.settings().stackTrace())
            .toList();
  }

  /** Whether the live recording has any of these events (a target may lack some). */
  boolean anyIn(Map<String, String> liveSettings) {
    return handlers.stream().anyMatch(h -> liveSettings.containsKey(key(h)));
  }

  /**
   * The live settings with stack traces on or off for every sampled event they hold; the whole map,
   * because a recording's {@code setSettings} replaces all of its settings.
   */
  Map<String, String> with(Map<String, String> liveSettings, boolean stacksOn) {
    Map<String, String> changed = new LinkedHashMap<>(liveSettings);
    for (StackSampledHandler handler : handlers) {
      changed.computeIfPresent(key(handler), (k, v) -> Boolean.toString(stacksOn));
    }
    return changed;
  }

  /** Tells every handler whether stackless events are sampling pauses now. */
  void sampling(boolean sampling) {
    handlers.forEach(h -> h.stacksSampled(sampling));
  }

  /** The event names, for the log. */
  List<String> eventNames() {
    return handlers.stream().map(JfrEventHandler::eventName).toList();
  }

  private static String key(JfrEventHandler handler) {
    return handler.eventName() + "#stackTrace";
  }
}
