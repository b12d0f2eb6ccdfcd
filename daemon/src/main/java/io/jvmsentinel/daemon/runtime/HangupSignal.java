package io.jvmsentinel.daemon.runtime;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action on SIGHUP, the Unix way to ask a daemon to re-read its configuration.
 *
 * <p>The JDK's only signal API is {@code sun.misc.Signal} in the jdk.unsupported module, which
 * exists for exactly this. javac flags every direct use as proprietary API, and the build treats
 * warnings as errors, so it is reached reflectively, here only. Where it is missing or refuses the
 * signal (another runtime, {@code -Xrs}, or SIGHUP ignored by whoever started it, as {@code nohup}
 * does) the daemon runs on without it and says so: the file is still checked every few seconds.
 */
public final class HangupSignal {
  private static final Logger log = LoggerFactory.getLogger(HangupSignal.class);

  private HangupSignal() {}

  /**
   * Calls {@code action} on a JDK signal thread at each SIGHUP (keep it short: hand work over).
   *
   * @return whether the handler is installed
   */
  public static boolean onHangup(Runnable action) {
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handler = Class.forName("sun.misc.SignalHandler");
      Object hup = signal.getConstructor(String.class).newInstance("HUP");
      InvocationHandler calls = (proxy, method, args) -> dispatch(proxy, method, args, action);
      Object proxy =
          Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler}, calls);
      Object previous = signal.getMethod("handle", signal, handler).invoke(null, hup, proxy);
      if (previous == handler.getField("SIG_IGN").get(null)) {
        // Ignored when the JVM started (nohup, some supervisors): the JVM then installs nothing.
        log.warn(
            "SIGHUP is ignored in this process (started under nohup?); the configuration file is"
                + " still re-read when it changes");
        return false;
      }
      return true;
    } catch (InvocationTargetException e) {
      log.warn(
          "SIGHUP cannot be handled here ({}); the configuration file is still re-read when it"
              + " changes",
          e.getCause().toString());
      return false;
    } catch (ReflectiveOperationException | LinkageError e) {
      log.warn(
          "this runtime has no sun.misc.Signal ({}); the configuration file is still re-read when"
              + " it changes",
          e.toString());
      return false;
    }
  }

  private static Object dispatch(Object proxy, Method method, Object[] args, Runnable action) {
    switch (method.getName()) {
      case "handle" -> {
        action.run();
        return null;
      }
      case "hashCode" -> {
        return System.identityHashCode(proxy);
      }
      case "equals" -> {
        return proxy == args[0];
      }
      default -> {
        return "SIGHUP handler";
      }
    }
  }
}
