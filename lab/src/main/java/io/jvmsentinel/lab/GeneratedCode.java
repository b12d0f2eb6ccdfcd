package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * New code at runtime without a compiler: the bytes of template classes, defined again by a fresh
 * class loader per copy. Every copy is a distinct class to the JVM, so the JIT compiles it anew,
 * and once a copy and its loader are unreachable a GC unloads the class and its compiled code.
 * Templates must be public with a public constructor and implement a JDK interface: a copy lives in
 * its own runtime package and can only be used through types of the parent loader.
 */
public final class GeneratedCode {

  private final Map<String, byte[]> classes = new HashMap<>();
  private final String mainClass;

  /** The template {@code mainClass} and any classes it uses that must be copied with it. */
  public GeneratedCode(Class<?> mainClass, Class<?>... companions) {
    this.mainClass = mainClass.getName();
    add(mainClass);
    for (Class<?> companion : companions) {
      add(companion);
    }
  }

  private GeneratedCode(String mainClass, Map<String, byte[]> classes) {
    this.mainClass = mainClass;
    this.classes.putAll(classes);
  }

  /**
   * The same code under another name of the same length ({@code io.jvmsentinel.lab.DeoptSpread07}
   * for {@code io.jvmsentinel.lab.DeoptTemplate}): its methods are other methods to the JVM and to
   * JFR. The class files name their classes in length-prefixed constants, so a name of the same
   * length is replaced byte for byte.
   */
  public GeneratedCode renamed(String name) {
    if (name.length() != mainClass.length()) {
      throw new IllegalArgumentException(name + " is not as long as " + mainClass);
    }
    byte[] from = internalName(mainClass);
    byte[] to = internalName(name);
    Map<String, byte[]> copies = new HashMap<>();
    classes.forEach(
        (className, bytes) ->
            copies.put(name + className.substring(name.length()), replaced(bytes, from, to)));
    return new GeneratedCode(name, copies);
  }

  private static byte[] internalName(String className) {
    return className.replace('.', '/').getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] replaced(byte[] bytes, byte[] from, byte[] to) {
    byte[] copy = bytes.clone();
    for (int i = 0; i + from.length <= copy.length; i++) {
      if (Arrays.equals(copy, i, i + from.length, from, 0, from.length)) {
        System.arraycopy(to, 0, copy, i, to.length);
        i += from.length - 1;
      }
    }
    return copy;
  }

  private void add(Class<?> type) {
    String resource = type.getName().replace('.', '/') + ".class";
    try (InputStream in = GeneratedCode.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no class file for " + type.getName());
      }
      classes.put(type.getName(), in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A new instance of a fresh copy of the template, through a new class loader. */
  public <T> T newCopy(Class<T> type) {
    try {
      Class<?> copy = new ChildFirstLoader(classes).loadClass(mainClass);
      return type.cast(copy.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot instantiate a copy of " + mainClass, e);
    }
  }

  /** Defines the template classes itself (child first), delegates everything else. */
  private static final class ChildFirstLoader extends ClassLoader {
    private final Map<String, byte[]> classes;

    ChildFirstLoader(Map<String, byte[]> classes) {
      super(ChildFirstLoader.class.getClassLoader());
      this.classes = classes;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      byte[] bytes = classes.get(name);
      if (bytes == null) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        return loaded != null ? loaded : defineClass(name, bytes, 0, bytes.length);
      }
    }
  }
}
