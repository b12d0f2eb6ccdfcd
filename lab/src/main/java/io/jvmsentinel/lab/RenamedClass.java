package io.jvmsentinel.lab;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A copy of a template class under a name of the caller's choosing, which may hold anything the JVM
 * allows in a class name (everything but {@code . ; [ /}): markup, separators, line breaks. Used to
 * make stack frames that attack what reads them (the hostile-frames scenario, the daemon's tests).
 */
public final class RenamedClass {
  private RenamedClass() {}

  /**
   * A new instance of {@code template} renamed to {@code name}, defined by a class loader of its
   * own. The template must be public with a public constructor and be used through {@code type}, a
   * type of the JDK's: the copy lives in a package of its own.
   */
  public static <T> T newInstance(Class<?> template, String name, Class<T> type) {
    byte[] bytes = renamed(classFile(template), template.getName(), name);
    try {
      Class<?> copy = new Definer().define(bytes);
      return type.cast(copy.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot define " + template.getName() + " renamed", e);
    }
  }

  /**
   * {@code count} instances of {@code template}, each a class of its own named {@code prefix} and a
   * three-digit number (internal form: {@code a/b/Name}), all defined by one new class loader, as
   * the classes of one jar a host loads. Same constraints as {@link #newInstance}.
   */
  public static <T> List<T> newInstances(
      Class<?> template, String prefix, int count, Class<T> type) {
    byte[] bytes = classFile(template);
    Definer loader = new Definer();
    List<T> instances = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = String.format("%s%03d", prefix, i);
      try {
        Class<?> copy = loader.define(renamed(bytes, template.getName(), name));
        instances.add(type.cast(copy.getDeclaredConstructor().newInstance()));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot define " + template.getName() + " renamed", e);
      }
    }
    return List.copyOf(instances);
  }

  static byte[] classFile(Class<?> template) {
    String resource = template.getName().replace('.', '/') + ".class";
    try (InputStream in = RenamedClass.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no class file for " + template.getName());
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the class file of " + template.getName(), e);
    }
  }

  /**
   * The class file with its own name's constant replaced: the class's name, in the constant pool
   * once, referenced by {@code this_class} and any stack map frame. Other constants (the source
   * file, a local variable's descriptor) keep the template's name, which the JVM does not check.
   */
  static byte[] renamed(byte[] classFile, String from, String to) {
    String oldName = from.replace('.', '/');
    return rewritten(classFile, utf -> utf.equals(oldName) ? to : utf);
  }

  /** The class file with each of its constant pool's texts (Utf8 constants) passed through edit. */
  static byte[] rewritten(byte[] classFile, UnaryOperator<String> edit) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(in.readInt()); // magic
      out.writeInt(in.readInt()); // minor, major
      int count = in.readUnsignedShort();
      out.writeShort(count);
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        out.writeByte(tag);
        switch (tag) {
          case 1: // Utf8
            out.writeUTF(edit.apply(in.readUTF()));
            break;
          case 3: // Integer, Float, field/method/interface refs, NameAndType, (Invoke)Dynamic
          case 4:
          case 9:
          case 10:
          case 11:
          case 12:
          case 17:
          case 18:
            out.writeInt(in.readInt());
            break;
          case 5: // Long, Double: two slots
          case 6:
            out.writeLong(in.readLong());
            i++;
            break;
          case 7: // Class, String, MethodType, Module, Package
          case 8:
          case 16:
          case 19:
          case 20:
            out.writeShort(in.readUnsignedShort());
            break;
          case 15: // MethodHandle
            out.writeByte(in.readUnsignedByte());
            out.writeShort(in.readUnsignedShort());
            break;
          default:
            throw new IllegalStateException("unknown constant pool tag " + tag);
        }
      }
      out.write(in.readAllBytes());
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("not a class file", e);
    }
  }

  /** Defines a class under the name its bytes carry (a null name skips ClassLoader's check). */
  private static final class Definer extends ClassLoader {
    Definer() {
      super(Definer.class.getClassLoader());
    }

    Class<?> define(byte[] bytes) {
      return defineClass(null, bytes, 0, bytes.length);
    }
  }
}
