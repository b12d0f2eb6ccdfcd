package io.jvmsentinel.daemon.jfr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanException;
import javax.management.ObjectName;
import javax.management.ReflectionException;

/**
 * The daemon's connection to an in-process target, where another tool starts a recording of its own
 * right before and right after each of the daemon's {@code newRecording} calls: the moment a daemon
 * that diffed the target's recordings before and after opening its stream took the wrong one (the
 * newer id is the other tool's).
 */
final class ForeignRecordingRace extends ForwardingConnection {
  private final InProcessTarget target;
  private final List<Long> foreign = new ArrayList<>();

  ForeignRecordingRace(InProcessTarget target) {
    super(target.connection);
    this.target = target;
  }

  @Override
  public Object invoke(ObjectName name, String operationName, Object[] params, String[] signature)
      throws InstanceNotFoundException, MBeanException, ReflectionException, IOException {
    boolean creating =
        TargetFlightRecorder.NAME.equals(name) && "newRecording".equals(operationName);
    if (creating) {
      foreign.add(target.startForeign("Remote Recording Stream: an APM agent's"));
    }
    Object result = super.invoke(name, operationName, params, signature);
    if (creating) {
      foreign.add(target.startForeign("JMC"));
    }
    return result;
  }

  /** The ids of the recordings the other tool started. */
  synchronized List<Long> foreign() {
    return List.copyOf(foreign);
  }
}
