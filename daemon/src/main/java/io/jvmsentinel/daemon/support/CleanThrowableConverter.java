package io.jvmsentinel.daemon.support;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import io.jvmsentinel.collectors.text.SafeText;

/**
 * {@code %cleanEx} in the daemon's log pattern ({@link LogSetup}): a logged exception's stack trace
 * with its messages, class names and frames cleaned ({@link SafeText}). The message of an exception
 * a target caused is the target's text (a remote exception, a reply it sent); a line break in it
 * would start a forged log line under the real one. The trace keeps its own line structure: one
 * line per frame.
 */
public final class CleanThrowableConverter extends ThrowableProxyConverter {
  @Override
  protected String throwableProxyToString(IThrowableProxy proxy) {
    return super.throwableProxyToString(new Clean(proxy));
  }

  private record Clean(IThrowableProxy raw) implements IThrowableProxy {
    @Override
    public String getMessage() {
      return raw.getMessage() == null ? null : SafeText.of(raw.getMessage());
    }

    @Override
    public String getClassName() {
      return SafeText.of(raw.getClassName());
    }

    @Override
    public StackTraceElementProxy[] getStackTraceElementProxyArray() {
      StackTraceElementProxy[] frames = raw.getStackTraceElementProxyArray();
      StackTraceElementProxy[] clean = new StackTraceElementProxy[frames.length];
      for (int i = 0; i < frames.length; i++) {
        StackTraceElement frame = frames[i].getStackTraceElement();
        clean[i] =
            new StackTraceElementProxy(
                new StackTraceElement(
                    SafeText.of(frame.getClassName()),
                    SafeText.of(frame.getMethodName()),
                    frame.getFileName() == null ? null : SafeText.of(frame.getFileName()),
                    frame.getLineNumber()));
      }
      return clean;
    }

    @Override
    public int getCommonFrames() {
      return raw.getCommonFrames();
    }

    @Override
    public IThrowableProxy getCause() {
      return raw.getCause() == null ? null : new Clean(raw.getCause());
    }

    @Override
    public IThrowableProxy[] getSuppressed() {
      IThrowableProxy[] suppressed = raw.getSuppressed();
      if (suppressed == null) {
        return null;
      }
      IThrowableProxy[] clean = new IThrowableProxy[suppressed.length];
      for (int i = 0; i < suppressed.length; i++) {
        clean[i] = new Clean(suppressed[i]);
      }
      return clean;
    }

    @Override
    public boolean isCyclic() {
      return raw.isCyclic();
    }
  }
}
