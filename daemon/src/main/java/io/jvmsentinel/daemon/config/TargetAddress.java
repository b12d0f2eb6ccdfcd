package io.jvmsentinel.daemon.config;

/** Where a target JVM is: a JMX service URL, or a local process to attach to. */
public sealed interface TargetAddress permits JmxAddress, PidAddress {}
