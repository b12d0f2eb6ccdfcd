package io.jvmsentinel.collectors.jmx;

import io.micrometer.core.instrument.Tags;
import java.util.List;

/**
 * The one explicit list of JMX pollers for a target. Fields are typed so detection and the API can
 * read the values they need without looking pollers up by name.
 */
public record JmxPollers(
    JvmIdentityPoller identity,
    MemoryPoolPoller memory,
    BufferPoolPoller buffers,
    ThreadPoller threads,
    CompilationPoller compilation,
    ClassLoadingPoller classes,
    ProcessPoller process,
    GcPoller gc,
    CodeCacheStatePoller codeCacheState,
    LockHolderPoller lockHolders) {

  /** Every poller, for a target whose series carry {@code tags}. */
  public static JmxPollers create(Tags tags) {
    ThreadPoller threads = new ThreadPoller(tags);
    JvmIdentityPoller identity = new JvmIdentityPoller(tags);
    return new JmxPollers(
        identity,
        new MemoryPoolPoller(tags),
        new BufferPoolPoller(tags),
        threads,
        new CompilationPoller(tags),
        new ClassLoadingPoller(tags),
        new ProcessPoller(tags),
        new GcPoller(tags, identity::identity),
        new CodeCacheStatePoller(tags),
        // After threads: it dumps only while the thread states just read show blocked threads.
        new LockHolderPoller(threads));
  }

  /** In the order they run: identity first, so the others can rely on knowing the target. */
  public List<JmxPoller> all() {
    return List.of(
        identity,
        memory,
        buffers,
        threads,
        compilation,
        classes,
        process,
        gc,
        codeCacheState,
        lockHolders);
  }
}
