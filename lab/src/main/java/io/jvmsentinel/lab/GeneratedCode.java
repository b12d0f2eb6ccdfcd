package io.jvmsentinel.lab;

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
   * The same code under another name ({@code io.jvmsentinel.lab.DeoptSpread07} for {@code
   * io.jvmsentinel.lab.DeoptTemplate}), its nested classes with it: its methods are other methods
   * to the JVM and to JFR. Every constant that names the template, alone or in a nested class's
   * name or a descriptor, names the new class instead.
   */
  public GeneratedCode renamed(String name) {
    String from = mainClass.replace('.', '/');
    String to = name.replace('.', '/');
    Map<String, byte[]> copies = new HashMap<>();
    classes.forEach(
        (className, bytes) ->
            copies.put(
                name + className.substring(mainClass.length()),
                RenamedClass.rewritten(bytes, utf -> utf.replace(from, to))));
    return new GeneratedCode(name, copies);
  }

  private void add(Class<?> type) {
    classes.put(type.getName(), RenamedClass.classFile(type));
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
