package io.jvmsentinel.daemon.discovery;

import io.jvmsentinel.daemon.identity.PodIdentity;

/** Which pod and container a process's cgroup places it in. */
@FunctionalInterface
public interface PodLookup {
  /** No Kubernetes API to ask: every process is outside a known pod. */
  PodLookup NONE = cgroup -> PodIdentity.NONE;

  /** The pod and container of the process, {@link PodIdentity#NONE} when not known. */
  PodIdentity find(ProcessCgroup cgroup);
}
