package io.jvmsentinel.collectors.catalog;

/**
 * What a catalogue entry says about its meter.
 *
 * @param meterName the dot.case Micrometer name; each registry translates it (Prometheus:
 *     snake_case)
 * @param baseUnit the base unit, or null for dimensionless values
 * @param tagKeys the tag keys this meter carries besides the target tags, as documentation text
 * @param source where the value comes from, as documentation text
 */
public record MeterSpec(
    String meterName,
    MeterKind kind,
    String baseUnit,
    String description,
    String tagKeys,
    String source) {}
