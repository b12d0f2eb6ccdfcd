package io.jvmsentinel.daemon;

public final class Main {
  public static void main(String[] args) {}
}
