package io.jvmsentinel.daemon.target;

import javax.management.AttributeNotFoundException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.ReflectionException;
import javax.management.RuntimeMBeanException;

/**
 * Why a poller could not read a target, as the {@code reason} tag of {@code
 * jvm_sentinel_poll_errors_total}. Connection loss is not among them: it is a lost connection, not
 * a poll error.
 */
enum PollProblem {
  /**
   * The target lacks an MBean, attribute or operation: another JVM vendor or version (JDK 8 has no
   * DiagnosticCommand {@code compilerCodecache}), a renamed pool.
   */
  MISSING("missing"),
  /** The data had another shape or type than expected: a poller's parsing failed on it. */
  UNEXPECTED("unexpected"),
  /** The target answered the call with an error of its own. */
  ERROR("error");

  private final String tag;

  PollProblem(String tag) {
    this.tag = tag;
  }

  String tag() {
    return tag;
  }

  static PollProblem classify(Exception e) {
    if (e instanceof InstanceNotFoundException
        || e instanceof AttributeNotFoundException
        // What an MBean answers for an operation it does not have (e.g. DiagnosticCommandImpl).
        || (e instanceof ReflectionException && e.getCause() instanceof NoSuchMethodException)) {
      return MISSING;
    }
    if (e instanceof RuntimeMBeanException || e instanceof JMException) {
      return ERROR;
    }
    return UNEXPECTED;
  }
}
