package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.ReflectionException;

/**
 * The connection handed to one {@code RemoteRecordingStream}: it notes the id the target returns
 * for the stream's {@code newRecording} call. That id is the daemon's recording beyond doubt: the
 * target returned it to this call, whatever else other tools start at the same moment (the JDK
 * keeps the stream's id private; diffing the target's list of recordings before and after could
 * take someone else's).
 */
final class NewRecordingCapture extends ForwardingConnection {
  private final List<Long> created = new ArrayList<>();

  NewRecordingCapture(MBeanServerConnection delegate) {
    super(delegate);
  }

  @Override
  public Object invoke(ObjectName name, String operationName, Object[] params, String[] signature)
      throws InstanceNotFoundException, MBeanException, ReflectionException, IOException {
    Object result = super.invoke(name, operationName, params, signature);
    if (TargetFlightRecorder.NAME.equals(name)
        && "newRecording".equals(operationName)
        && result instanceof Long id) {
      synchronized (created) {
        created.add(id);
      }
    }
    return result;
  }

  /**
   * The one recording created through this connection; fails when there was none or several (a JDK
   * whose stream creates recordings differently: then the daemon touches none of them).
   */
  long createdRecording() throws IOException {
    synchronized (created) {
      if (created.size() != 1) {
        throw new IOException(
            "expected the JFR stream to create exactly one recording on the target, saw "
                + created.size()
                + " "
                + created);
      }
      return created.get(0);
    }
  }
}
