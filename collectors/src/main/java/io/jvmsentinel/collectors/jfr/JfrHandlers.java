package io.jvmsentinel.collectors.jfr;

import io.jvmsentinel.collectors.jfr.codecache.CodeCacheFullHandler;
import io.jvmsentinel.collectors.jfr.codecache.CodeCacheStatisticsHandler;
import io.jvmsentinel.collectors.jfr.codecache.CodeSweeperStatisticsHandler;
import io.jvmsentinel.collectors.jfr.compiler.CompilationFailureHandler;
import io.jvmsentinel.collectors.jfr.compiler.CompilationHandler;
import io.jvmsentinel.collectors.jfr.compiler.CpuLoadHandler;
import io.jvmsentinel.collectors.jfr.compiler.DeoptimizationHandler;
import io.jvmsentinel.collectors.jfr.compiler.JitRestartHandler;
import io.jvmsentinel.collectors.jfr.compiler.MonitoringThreads;
import io.jvmsentinel.collectors.jfr.compiler.ThreadCpuLoadHandler;
import io.jvmsentinel.collectors.jfr.handler.JfrEventHandler;
import io.jvmsentinel.collectors.jfr.locks.ContentionHandler;
import io.jvmsentinel.collectors.jfr.locks.ContentionKind;
import io.jvmsentinel.collectors.jfr.locks.ContentionTable;
import io.jvmsentinel.collectors.jfr.threads.ThreadEndHandler;
import io.jvmsentinel.collectors.jfr.threads.ThreadLifetimes;
import io.jvmsentinel.collectors.jfr.threads.ThreadStartHandler;
import io.jvmsentinel.collectors.jfr.threads.VirtualThreadPinnedHandler;
import io.jvmsentinel.collectors.jfr.tls.RecentValidations;
import io.jvmsentinel.collectors.jfr.tls.TlsHandshakeHandler;
import io.jvmsentinel.collectors.jfr.tls.X509CertificateHandler;
import io.jvmsentinel.collectors.jfr.tls.X509ValidationHandler;
import io.jvmsentinel.collectors.support.CompilerCpu;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.util.List;

/**
 * The one explicit list of JFR event handlers for a target, grouped by subsystem. The stream wires
 * only those whose event the target's JVM offers (e.g. {@code jdk.CodeSweeperStatistics} exists up
 * to JDK 19 only), so one list serves every JDK. Handlers whose state the API and detection read
 * are exposed as typed accessors.
 */
public final class JfrHandlers {
  private final ThreadLifetimes lifetimes = new ThreadLifetimes();
  private final ThreadStartHandler threadStarts;
  private final ThreadEndHandler threadEnds;
  private final VirtualThreadPinnedHandler virtualThreadPins;
  private final CodeCacheStatisticsHandler codeCacheStatistics;
  private final CodeCacheFullHandler codeCacheFull;
  private final CodeSweeperStatisticsHandler sweeper;
  private final CompilationHandler compilations;
  private final CompilationFailureHandler compilationFailures;
  private final DeoptimizationHandler deoptimizations;
  private final JitRestartHandler jitRestarts;
  private final CompilerCpu compilerCpu = new CompilerCpu(ThreadCpuLoadHandler.PERIOD);
  private final ThreadCpuLoadHandler threadCpuLoad;
  private final CpuLoadHandler cpuLoad;
  private final TlsHandshakeHandler tlsHandshakes;
  private final X509ValidationHandler certificateValidations;
  private final X509CertificateHandler certificates;
  private final ContentionTable contention = new ContentionTable();
  private final ContentionHandler monitorEnters;
  private final ContentionHandler parks;
  private final ContentionHandler monitorWaits;

  private JfrHandlers(Tags tags) {
    threadStarts = new ThreadStartHandler(tags, lifetimes);
    threadEnds = new ThreadEndHandler(tags, lifetimes);
    virtualThreadPins = new VirtualThreadPinnedHandler(tags);
    codeCacheStatistics = new CodeCacheStatisticsHandler(tags);
    codeCacheFull = new CodeCacheFullHandler();
    sweeper = new CodeSweeperStatisticsHandler(tags);
    compilations = new CompilationHandler(tags);
    // Starting a remote stream deoptimises code on the RMI threads serving it: not the app's.
    compilationFailures = new CompilationFailureHandler(tags, MonitoringThreads.DEFAULT);
    deoptimizations = new DeoptimizationHandler(tags, MonitoringThreads.DEFAULT);
    jitRestarts = new JitRestartHandler();
    threadCpuLoad = new ThreadCpuLoadHandler(tags, compilerCpu);
    cpuLoad = new CpuLoadHandler(tags, compilerCpu);
    RecentValidations validations = new RecentValidations();
    // Certificates named by validations and handshakes are the ones whose expiry is exported.
    certificates = new X509CertificateHandler(tags, Clock.systemUTC());
    tlsHandshakes = new TlsHandshakeHandler(tags, validations, certificates::markUsed);
    certificateValidations = new X509ValidationHandler(tags, validations, certificates::markUsed);
    monitorEnters = new ContentionHandler(tags, ContentionKind.MONITOR_ENTER, contention);
    parks = new ContentionHandler(tags, ContentionKind.THREAD_PARK, contention);
    monitorWaits = new ContentionHandler(tags, ContentionKind.MONITOR_WAIT, contention);
  }

  /** Every handler, for a target whose series carry {@code tags}. */
  public static JfrHandlers create(Tags tags) {
    return new JfrHandlers(tags);
  }

  public List<JfrEventHandler> all() {
    return List.of(
        // threads
        threadStarts,
        threadEnds,
        virtualThreadPins,
        // code cache
        codeCacheStatistics,
        codeCacheFull,
        sweeper,
        // JIT
        compilations,
        compilationFailures,
        deoptimizations,
        jitRestarts,
        threadCpuLoad,
        cpuLoad,
        // TLS
        certificateValidations,
        tlsHandshakes,
        certificates,
        // locks
        monitorEnters,
        parks,
        monitorWaits);
  }

  /** Contended waits by lock, drained by each detection tick. */
  public ContentionTable contention() {
    return contention;
  }

  public ThreadStartHandler threadStarts() {
    return threadStarts;
  }

  public ThreadLifetimes threadLifetimes() {
    return lifetimes;
  }

  public CodeCacheFullHandler codeCacheFull() {
    return codeCacheFull;
  }

  public CodeCacheStatisticsHandler codeCacheStatistics() {
    return codeCacheStatistics;
  }

  public CodeSweeperStatisticsHandler sweeper() {
    return sweeper;
  }

  public CompilationHandler compilations() {
    return compilations;
  }

  public DeoptimizationHandler deoptimizations() {
    return deoptimizations;
  }

  public JitRestartHandler jitRestarts() {
    return jitRestarts;
  }

  public CompilerCpu compilerCpu() {
    return compilerCpu;
  }

  public TlsHandshakeHandler tlsHandshakes() {
    return tlsHandshakes;
  }

  public X509CertificateHandler certificates() {
    return certificates;
  }
}
