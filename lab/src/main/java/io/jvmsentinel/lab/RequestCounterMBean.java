package io.jvmsentinel.lab;

/** Requests the running scenario completed, readable over JMX by tests that need a denominator. */
public interface RequestCounterMBean {

  String OBJECT_NAME = "io.jvmsentinel.lab:type=Requests";

  /** Requests completed successfully since the scenario began. */
  long getCompleted();

  /** Requests that failed (refused, timed out, TLS errors). */
  long getFailed();
}
