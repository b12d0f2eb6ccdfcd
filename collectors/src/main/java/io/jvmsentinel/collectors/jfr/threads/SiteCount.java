package io.jvmsentinel.collectors.jfr.threads;

/** Thread starts counted for one creator site, for detection rules. */
public record SiteCount(String site, long count) {}
