package io.jvmsentinel.lab;

import java.util.function.Consumer;

/**
 * The code {@link HostileFramesScenario} renames before it defines it: starts one daemon thread of
 * the given name, so the thread start's stack names this class under its hostile name. Public, with
 * a public constructor, used only through {@link Consumer}: its copy lives in a package of its own.
 */
public final class HostileFrameTemplate implements Consumer<String> {
  @Override
  public void accept(String threadName) {
    Thread thread = new Thread(threadName);
    thread.setDaemon(true);
    thread.start();
  }
}
