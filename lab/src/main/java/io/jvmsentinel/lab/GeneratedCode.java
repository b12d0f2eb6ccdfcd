package io.jvmsentinel.lab;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
