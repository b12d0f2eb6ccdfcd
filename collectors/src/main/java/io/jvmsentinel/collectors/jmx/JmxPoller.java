package io.jvmsentinel.collectors.jmx;

import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;

/**
 * Reads one part of a target JVM's MBeans and keeps the latest values for its meters.
 *
 * <p>Meters are bound once ({@link #bindTo}); connections come and go underneath: {@link
 * #connected} runs on each new connection, {@link #poll} on every interval, {@link #disconnected}
 * when the connection is lost. Gauges read cached values, so a scrape never touches the network,
 * and report NaN while the target is disconnected; counters keep their last value.
 *
 * <p>An {@link IOException} means the connection is broken; a {@link JMException} means this target
 * lacks what the poller reads (a missing MBean or attribute), which is not a connection problem.
 */
public interface JmxPoller extends MeterBinder {

  /** A short stable name, used as the {@code poller} tag of poll error counts. */
  String name();

  /** A new connection is up: discover MBeans and subscribe to notifications. */
  default void connected(MBeanServerConnection mbeans) throws IOException, JMException {}

  /** Reads current values in as few remote calls as possible. */
  void poll(MBeanServerConnection mbeans) throws IOException, JMException;

  /**
   * Reads only the cheap values detection needs between polls (one {@code getAttributes} round trip
   * per MBean), on the fast schedule that runs while the target has no JFR event source ({@code
   * detection.signalPollInterval}, every second by default). Nothing by default: a poller whose
   * values no rule needs sooner than the poll interval, or whose read costs the target more (a
   * safepoint, a thread dump), reads only in {@link #poll}.
   */
  default void pollDetectionSignals(MBeanServerConnection mbeans) throws IOException, JMException {}

  /** The connection is gone: forget current values so gauges stop reporting stale data. */
  void disconnected();
}
