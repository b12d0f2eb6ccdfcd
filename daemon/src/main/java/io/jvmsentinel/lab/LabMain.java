package io.jvmsentinel.lab;

public final class LabMain {
  public static void main(String[] args) {}
}
