package io.jvmsentinel.collectors.jfr.handler;

import io.jvmsentinel.collectors.text.SafeText;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * One frame of an event's stack (thread starts, blocked threads), detached from the recording (so
 * tests can build them).
 *
 * @param jdk whether the frame's class is the JDK's own: defined by the bootstrap loader, or a
 *     reflection accessor the JDK generated. Known from the class loader the recording names, not
 *     from the class name, which the target is free to choose.
 */
public record StackFrame(String className, String methodName, int line, boolean jdk) {
  /** Cap on a rendered frame or site: class names are the target's to choose, memory is ours. */
  public static final int MAX_TEXT = SafeText.MAX_NAME;

  /** JFR's default stack depth: deeper stacks are cut here too, which bounds sample memory. */
  public static final int MAX_FRAMES = 64;

  /**
   * An event's stack, top first, at most {@link #MAX_FRAMES} frames.
   *
   * @param frames null when the event has no stack trace
   * @param truncated whether frames are missing below the last one
   */
  public record Stack(List<StackFrame> frames, boolean truncated) {
    public static final Stack NONE = new Stack(null, false);

    /** The stack of a recorded event; {@link #NONE} when it has none. */
    public static Stack of(RecordedStackTrace stack) {
      if (stack == null || stack.getFrames() == null) {
        return NONE;
      }
      List<RecordedFrame> recorded = stack.getFrames();
      List<StackFrame> frames = new ArrayList<>(Math.min(recorded.size(), MAX_FRAMES));
      for (RecordedFrame frame : recorded) {
        if (frames.size() == MAX_FRAMES) {
          break;
        }
        frames.add(StackFrame.of(frame));
      }
      return new Stack(frames, stack.isTruncated() || recorded.size() > MAX_FRAMES);
    }

    /** The frames as {@code Class.method:line}, top first; empty when there is no stack. */
    public List<String> text() {
      return frames == null ? List.of() : frames.stream().map(StackFrame::text).toList();
    }
  }

  /**
   * The JDK's reflection accessors are defined by loaders of their own (JDK 8 to 21: {@code
   * GeneratedMethodAccessorN}; every JDK: {@code sun.reflect.misc.Trampoline}, which JMX invokes
   * MBeans through); such a loader's class is itself the bootstrap loader's.
   */
  private static final Set<String> JDK_ACCESSOR_LOADERS =
      Set.of(
          "jdk.internal.reflect.DelegatingClassLoader",
          "sun.reflect.DelegatingClassLoader",
          "sun.reflect.misc.MethodUtil");

  /** A frame of a class that is not the JDK's (or whose loader is unknown). */
  public StackFrame(String className, String methodName, int line) {
    this(className, methodName, line, false);
  }

  public static StackFrame of(RecordedFrame frame) {
    RecordedMethod method = frame == null ? null : frame.getMethod();
    if (method == null || method.getType() == null) {
      return new StackFrame("unknown", "unknown", -1);
    }
    RecordedClass type = method.getType();
    return new StackFrame(type.getName(), method.getName(), frame.getLineNumber(), jdk(type));
  }

  /**
   * Whether the JDK defined {@code type}. JFR names the bootstrap loader without a class (no other
   * loader can be: every loader is an object), and gives the JDK's own hidden classes (the {@code
   * LambdaForm} frames of JDK 25) no loader at all.
   */
  private static boolean jdk(RecordedClass type) {
    RecordedClassLoader loader = type.getClassLoader();
    if (loader == null || loader.getType() == null) {
      return true;
    }
    RecordedClass loaderType = loader.getType();
    RecordedClassLoader loaderOfLoader = loaderType.getClassLoader();
    return JDK_ACCESSOR_LOADERS.contains(loaderType.getName())
        && (loaderOfLoader == null || loaderOfLoader.getType() == null);
  }

  /** The site name, {@code fully.qualified.Class.method}. */
  public String site() {
    return clean(className + "." + methodName);
  }

  /** {@code Class.method:line}, or {@code Class.method} when the line is unknown. */
  public String text() {
    return line >= 0 ? clean(className + "." + methodName + ":" + line) : site();
  }

  /**
   * Bytecode names may hold spaces, semicolons and control characters (only {@code . ; [ /} are
   * banned in unqualified names, and not by every JVM language); the collapsed-stack format splits
   * on {@code ;} and lines, and bidirectional controls disguise a name, so those become {@code _},
   * and very long names are cut.
   */
  private static String clean(String text) {
    return SafeText.bounded(text, MAX_TEXT).replace(';', '_');
  }
}
