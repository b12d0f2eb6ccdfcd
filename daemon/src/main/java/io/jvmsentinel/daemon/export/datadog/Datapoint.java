package io.jvmsentinel.daemon.export.datadog;

/**
 * One value sent for one step: a gauge (the current value) or a count (what was added during the
 * step).
 *
 * @param name the DogStatsD metric name
 */
record Datapoint(String name, Kind kind, double value) {
  enum Kind {
    GAUGE,
    COUNT
  }

  static Datapoint gauge(String name, double value) {
    return new Datapoint(name, Kind.GAUGE, value);
  }

  static Datapoint count(String name, double value) {
    return new Datapoint(name, Kind.COUNT, value);
  }
}
