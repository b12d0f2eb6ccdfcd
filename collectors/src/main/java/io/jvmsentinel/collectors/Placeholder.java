package io.jvmsentinel.collectors;

final class Placeholder {}
