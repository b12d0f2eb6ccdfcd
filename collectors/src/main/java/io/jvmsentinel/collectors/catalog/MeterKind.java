package io.jvmsentinel.collectors.catalog;

/** The Micrometer meter type a catalog entry is registered as. */
public enum MeterKind {
  GAUGE,
  COUNTER,
  TIMER
}
