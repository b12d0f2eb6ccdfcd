package io.jvmsentinel.daemon.alert;

/**
 * One tunable of a rule: a name (the config key), a default, a unit and what it means. Every
 * threshold can be overridden in the configuration, globally or per target.
 */
public record RuleThreshold(String name, double defaultValue, String unit, String description) {}
