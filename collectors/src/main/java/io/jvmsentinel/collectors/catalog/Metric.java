package io.jvmsentinel.collectors.catalog;

import io.micrometer.core.instrument.binder.BaseUnits;

/**
 * The catalog of every meter the collectors register: name, kind, base unit, description, tags and
 * source (the daemon's own meters are in its {@code SentinelMetric}, with the same shape).
 * Collectors register meters only through these entries, and docs/metrics.md is generated from
 * them, so a name exists in exactly one place.
 *
 * <p>Where Micrometer's own JVM binders define a meter with the same meaning, the same name, unit
 * and tags are used, so existing JVM dashboards keep working.
 */
public enum Metric implements MeterDefinition {
  // --- Memory pools, including the code cache segments (JMX) ---
  JVM_MEMORY_USED(
      "jvm.memory.used",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "The amount of used memory",
      "area, id",
      "JMX `java.lang:type=MemoryPool,name=*` `Usage.used`; code cache segments have"
          + " `id=\"CodeHeap '...'\"` or `id=\"CodeCache\"` (JDK 8: `id=\"Code Cache\"`)"),
  JVM_MEMORY_COMMITTED(
      "jvm.memory.committed",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "The amount of memory in bytes that is committed for the Java virtual machine to use",
      "area, id",
      "JMX `java.lang:type=MemoryPool,name=*` `Usage.committed`"),
  JVM_MEMORY_MAX(
      "jvm.memory.max",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "The maximum amount of memory in bytes that can be used for memory management (-1 if"
          + " undefined)",
      "area, id",
      "JMX `java.lang:type=MemoryPool,name=*` `Usage.max`"),
  JVM_MEMORY_USED_AFTER_GC(
      "jvm.memory.used.after.gc",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "Memory used in a heap pool as the last garbage collection of the pool left it",
      "area, id",
      "JMX `java.lang:type=MemoryPool,name=*` `CollectionUsage.used`; heap pools only (the others"
          + " have no collection usage)"),
  JVM_MEMORY_PEAK(
      "jvm.memory.peak",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "The peak used memory of the pool since the target JVM started or its peak was reset",
      "area, id",
      "JMX `java.lang:type=MemoryPool,name=*` `PeakUsage.used`"),

  // --- Buffer pools (JMX), as Micrometer's JvmMemoryMetrics names them ---
  JVM_BUFFER_COUNT(
      "jvm.buffer.count",
      MeterKind.GAUGE,
      BaseUnits.BUFFERS,
      "An estimate of the number of buffers in the pool",
      "id (direct, mapped, ...)",
      "JMX `java.nio:type=BufferPool,name=*` `Count`"),
  JVM_BUFFER_MEMORY_USED(
      "jvm.buffer.memory.used",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "An estimate of the memory that the Java virtual machine is using for this buffer pool",
      "id",
      "JMX `java.nio:type=BufferPool,name=*` `MemoryUsed`"),
  JVM_BUFFER_TOTAL_CAPACITY(
      "jvm.buffer.total.capacity",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "An estimate of the total capacity of the buffers in this pool",
      "id",
      "JMX `java.nio:type=BufferPool,name=*` `TotalCapacity`"),

  // --- JIT (JMX) ---
  JVM_COMPILATION_TIME(
      "jvm.compilation.time",
      MeterKind.COUNTER,
      BaseUnits.MILLISECONDS,
      "The approximate accumulated elapsed time spent in compilation",
      "compiler",
      "JMX `java.lang:type=Compilation` `TotalCompilationTime`"),

  // --- Threads (JMX) ---
  JVM_THREADS_LIVE(
      "jvm.threads.live",
      MeterKind.GAUGE,
      BaseUnits.THREADS,
      "The current number of live threads including both daemon and non-daemon threads",
      "",
      "JMX `java.lang:type=Threading` `ThreadCount`"),
  JVM_THREADS_DAEMON(
      "jvm.threads.daemon",
      MeterKind.GAUGE,
      BaseUnits.THREADS,
      "The current number of live daemon threads",
      "",
      "JMX `java.lang:type=Threading` `DaemonThreadCount`"),
  JVM_THREADS_PEAK(
      "jvm.threads.peak",
      MeterKind.GAUGE,
      BaseUnits.THREADS,
      "The peak live thread count since the Java virtual machine started or peak was reset",
      "",
      "JMX `java.lang:type=Threading` `PeakThreadCount`"),
  JVM_THREADS_STATES(
      "jvm.threads.states",
      MeterKind.GAUGE,
      BaseUnits.THREADS,
      "The current number of threads in each state",
      "state (new, runnable, blocked, waiting, timed-waiting, terminated)",
      "JMX `java.lang:type=Threading` `getThreadInfo(AllThreadIds)` (no stack traces)"),
  JVM_THREADS_BLOCKED_COUNT(
      "jvm.threads.blocked.count",
      MeterKind.GAUGE,
      BaseUnits.THREADS,
      "Times the live threads have blocked entering a monitor, summed over the live threads (it"
          + " falls when threads end: use deriv(), not rate())",
      "",
      "JMX `java.lang:type=Threading` `getThreadInfo(AllThreadIds)` `blockedCount`, every JDK"),
  JVM_THREADS_BLOCKED_TIME(
      "jvm.threads.blocked.time",
      MeterKind.GAUGE,
      "seconds",
      "Time the live threads have spent blocked entering a monitor, summed over the live threads"
          + " (it falls when threads end: use deriv(), not rate()); absent (NaN) unless the target"
          + " already runs with thread contention monitoring on, which the daemon never turns on",
      "",
      "JMX `java.lang:type=Threading` `getThreadInfo(AllThreadIds)` `blockedTime`, when"
          + " `ThreadContentionMonitoringEnabled`; every JDK"),
  JVM_THREADS_STARTED(
      "jvm.threads.started",
      MeterKind.COUNTER,
      BaseUnits.THREADS,
      "The total number of application threads started in the JVM",
      "",
      "JMX `java.lang:type=Threading` `TotalStartedThreadCount`"),

  // --- GC (JMX) ---
  JVM_GC_PAUSE(
      "jvm.gc.pause",
      MeterKind.TIMER,
      "seconds",
      "Time spent in GC pause",
      "gc, action, cause",
      "JMX notification `com.sun.management.gc.notification` from each"
          + " `java.lang:type=GarbageCollector,name=*`"),
  JVM_GC_CONCURRENT_PHASE_TIME(
      "jvm.gc.concurrent.phase.time",
      MeterKind.TIMER,
      "seconds",
      "Time spent in concurrent phase",
      "gc, action, cause",
      "JMX notification `com.sun.management.gc.notification` (concurrent collectors: cause"
          + " `No GC`, ZGC/Shenandoah cycles)"),
  JVM_GC_COLLECTIONS(
      "jvm.gc.collections",
      MeterKind.COUNTER,
      null,
      "Collections run by a garbage collector since the target JVM started",
      "gc",
      "JMX `java.lang:type=GarbageCollector,name=*` `CollectionCount`"),
  JVM_GC_COLLECTION_TIME(
      "jvm.gc.collection.time",
      MeterKind.COUNTER,
      "seconds",
      "Accumulated collection elapsed time of a garbage collector",
      "gc",
      "JMX `java.lang:type=GarbageCollector,name=*` `CollectionTime`"),

  // --- Classes (JMX) ---
  JVM_GC_MEMORY_ALLOCATED(
      "jvm.gc.memory.allocated",
      MeterKind.COUNTER,
      BaseUnits.BYTES,
      "Incremented for an increase in the size of the (young) heap memory pool after one GC to"
          + " before the next",
      "",
      "JMX GC notifications (`GcInfo` memory usage before and after each collection)"),
  JVM_GC_MEMORY_PROMOTED(
      "jvm.gc.memory.promoted",
      MeterKind.COUNTER,
      BaseUnits.BYTES,
      "Count of positive increases in the size of the old generation memory pool before GC to"
          + " after GC",
      "",
      "JMX GC notifications (`GcInfo` memory usage before and after each collection)"),
  JVM_GC_LIVE_DATA_SIZE(
      "jvm.gc.live.data.size",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "Size of long-lived heap memory pool after reclamation",
      "",
      "JMX GC notifications: the old generation (or the single heap pool) after a major"
          + " collection"),
  JVM_GC_MAX_DATA_SIZE(
      "jvm.gc.max.data.size",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "Max size of long-lived heap memory pool",
      "",
      "JMX GC notifications: the maximum of the old generation (or the single heap pool)"),
  JVM_CLASSES_LOADED(
      "jvm.classes.loaded",
      MeterKind.GAUGE,
      BaseUnits.CLASSES,
      "The number of classes that are currently loaded in the Java virtual machine",
      "",
      "JMX `java.lang:type=ClassLoading` `LoadedClassCount`"),
  JVM_CLASSES_LOADS(
      "jvm.classes.loads",
      MeterKind.COUNTER,
      BaseUnits.CLASSES,
      "The number of classes loaded since the Java virtual machine started",
      "",
      "JMX `java.lang:type=ClassLoading` `TotalLoadedClassCount`"),
  JVM_CLASSES_UNLOADED(
      "jvm.classes.unloaded",
      MeterKind.COUNTER,
      BaseUnits.CLASSES,
      "The number of classes unloaded in the Java virtual machine",
      "",
      "JMX `java.lang:type=ClassLoading` `UnloadedClassCount`"),

  // --- Process and system (JMX) ---
  PROCESS_CPU_USAGE(
      "process.cpu.usage",
      MeterKind.GAUGE,
      null,
      "The \"recent cpu usage\" for the Java Virtual Machine process (0..1 of all CPUs)",
      "",
      "JMX `java.lang:type=OperatingSystem` `ProcessCpuLoad`"),
  PROCESS_CPU_TIME(
      "process.cpu.time",
      MeterKind.COUNTER,
      "ns",
      "The \"cpu time\" used by the Java Virtual Machine process",
      "",
      "JMX `java.lang:type=OperatingSystem` `ProcessCpuTime`"),
  SYSTEM_CPU_USAGE(
      "system.cpu.usage",
      MeterKind.GAUGE,
      null,
      "The \"recent cpu usage\" of the system the application is running in",
      "",
      "JMX `java.lang:type=OperatingSystem` `CpuLoad` (JDK 14+) or `SystemCpuLoad`"),
  SYSTEM_CPU_COUNT(
      "system.cpu.count",
      MeterKind.GAUGE,
      null,
      "The number of processors available to the Java virtual machine",
      "",
      "JMX `java.lang:type=OperatingSystem` `AvailableProcessors`"),
  SYSTEM_LOAD_AVERAGE_1M(
      "system.load.average.1m",
      MeterKind.GAUGE,
      null,
      "The system load average for the last minute (negative if unavailable)",
      "",
      "JMX `java.lang:type=OperatingSystem` `SystemLoadAverage`"),
  PROCESS_FILES_OPEN(
      "process.files.open",
      MeterKind.GAUGE,
      BaseUnits.FILES,
      "The open file descriptor count",
      "",
      "JMX `java.lang:type=OperatingSystem` `OpenFileDescriptorCount` (Unix targets)"),
  PROCESS_FILES_MAX(
      "process.files.max",
      MeterKind.GAUGE,
      BaseUnits.FILES,
      "The maximum file descriptor count",
      "",
      "JMX `java.lang:type=OperatingSystem` `MaxFileDescriptorCount` (Unix targets)"),
  PROCESS_UPTIME(
      "process.uptime",
      MeterKind.GAUGE,
      "seconds",
      "The uptime of the Java virtual machine",
      "",
      "JMX `java.lang:type=Runtime` `Uptime`"),
  PROCESS_START_TIME(
      "process.start.time",
      MeterKind.GAUGE,
      "seconds",
      "Start time of the process since unix epoch",
      "",
      "JMX `java.lang:type=Runtime` `StartTime`"),
  JVM_INFO(
      "jvm.info",
      MeterKind.GAUGE,
      null,
      "JVM version info (always 1 while connected)",
      "version, vendor, runtime",
      "JMX `java.lang:type=Runtime` `SystemProperties`, read once per connection"),

  // --- Threads (JFR) ---
  JVM_THREADS_ENDED(
      "jvm.threads.ended",
      MeterKind.COUNTER,
      BaseUnits.THREADS,
      "Threads that ended, seen since the stream connected",
      "",
      "JFR `jdk.ThreadEnd` (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+)"),
  JVM_THREADS_SHORT_LIVED(
      "jvm.threads.short.lived",
      MeterKind.COUNTER,
      BaseUnits.THREADS,
      "Threads that ended within 1 s of starting (one thread per task or request)",
      "",
      "JFR `jdk.ThreadStart` + `jdk.ThreadEnd`, matched by thread id (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+)"),
  JVM_THREADS_STARTED_BY_SITE(
      "jvm.threads.started.by.site",
      MeterKind.COUNTER,
      BaseUnits.THREADS,
      "Thread starts by creator site: the first frame below the thread-start and executor"
          + " plumbing, as Class.method; the busiest sites get their own series, the rest are"
          + " site=\"other\", and site=\"unknown\" means the start had no stack trace",
      "site",
      "JFR `jdk.ThreadStart` stack traces (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+)"),

  JVM_THREADS_CONTENTION(
      "jvm.threads.contention",
      MeterKind.TIMER,
      "seconds",
      "Time threads waited, by kind: kind=\"monitor-enter\" blocked entering a synchronized"
          + " monitor, kind=\"park\" parked in LockSupport.park (locks, conditions, queues),"
          + " kind=\"wait\" in Object.wait; only waits of at least 10 ms (enter, park) or 20 ms"
          + " (wait) are recorded; the first 20 classes per kind get their own series, the rest"
          + " are class=\"other\"; rate(_sum) is threads blocked on average",
      "kind, class (the monitor's or park blocker's class)",
      "JFR `jdk.JavaMonitorEnter`, `jdk.ThreadPark`, `jdk.JavaMonitorWait` (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+)"),

  JVM_THREADS_VIRTUAL_PINNED(
      "jvm.threads.virtual.pinned",
      MeterKind.TIMER,
      "seconds",
      "Time virtual threads spent blocked while pinned to their carrier thread, so the carrier"
          + " could serve no other virtual thread, by site: the first application frame of the"
          + " pinned thread's stack (where it blocked: the synchronized method or block is there"
          + " or in a caller; a class initializer on JDK 24+, where the event's pinnedReason names"
          + " it when no frame does); only pins of at least 20 ms are recorded; the first 20 sites"
          + " get their own series, the rest are site=\"other\"; rate(_sum) is carriers held on"
          + " average",
      "site",
      "JFR `jdk.VirtualThreadPinned` (JDK 21+; from JDK 24 a `synchronized` block no longer pins, JEP 491)"),

  // --- Code cache (JFR; compilation state from the DiagnosticCommand MBean) ---
  JVM_CODECACHE_FULL(
      "jvm.codecache.full",
      MeterKind.COUNTER,
      null,
      "Times a code heap segment became full since the target started",
      "segment",
      "JFR `jdk.CodeCacheStatistics` `fullCount` (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+); the timing of each event"
          + " comes from `jdk.CodeCacheFull`"),
  JVM_CODECACHE_ENTRIES(
      "jvm.codecache.entries",
      MeterKind.GAUGE,
      null,
      "Code blobs in a code heap segment",
      "segment",
      "JFR `jdk.CodeCacheStatistics` `entryCount`"),
  JVM_CODECACHE_METHODS(
      "jvm.codecache.methods",
      MeterKind.GAUGE,
      null,
      "Compiled methods (nmethods) in a code heap segment",
      "segment",
      "JFR `jdk.CodeCacheStatistics` `methodCount`"),
  JVM_CODECACHE_UNALLOCATED(
      "jvm.codecache.unallocated",
      MeterKind.GAUGE,
      BaseUnits.BYTES,
      "Unallocated capacity of a code heap segment",
      "segment",
      "JFR `jdk.CodeCacheStatistics` `unallocatedCapacity`"),
  JVM_CODECACHE_SWEEPER_SWEEPS(
      "jvm.codecache.sweeper.sweeps",
      MeterKind.COUNTER,
      null,
      "Code cache sweeper passes since the target started (JDK 19 and older)",
      "",
      "JFR `jdk.CodeSweeperStatistics` `sweepCount` (JDK 8u262+ to 19; the sweeper is gone in 20+)"),
  JVM_CODECACHE_SWEEPER_RECLAIMED(
      "jvm.codecache.sweeper.methods.reclaimed",
      MeterKind.COUNTER,
      null,
      "Compiled methods the sweeper flushed from the code cache since the target started",
      "",
      "JFR `jdk.CodeSweeperStatistics` `methodReclaimedCount` (JDK 8u262+ to 19)"),
  JVM_CODECACHE_SWEEPER_TIME(
      "jvm.codecache.sweeper.time",
      MeterKind.COUNTER,
      "seconds",
      "Time the sweeper spent sweeping since the target started",
      "",
      "JFR `jdk.CodeSweeperStatistics` `totalSweepTime` (JDK 8u262+ to 19)"),

  // --- JIT (JFR; compilation state from the DiagnosticCommand MBean) ---
  JVM_JIT_COMPILATIONS(
      "jvm.jit.compilations",
      MeterKind.COUNTER,
      null,
      "JIT compilations by compiler, tier, on-stack replacement and outcome",
      "compiler (c1, c2, jvmci), tier (0-4), osr (true, false), outcome (success, failure)",
      "JFR `jdk.Compilation` (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+)"),
  JVM_JIT_RECOMPILATIONS(
      "jvm.jit.recompilations",
      MeterKind.COUNTER,
      null,
      "Standard (non-OSR) compilations of a method already compiled at the same tier on this"
          + " stream: the same code compiled again after it was made not entrant, flushed or"
          + " unloaded. Sustained, with code cache pressure, this is codecache churn; first-time"
          + " compilation of new code never counts",
      "",
      "JFR `jdk.Compilation` (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+)"),
  JVM_JIT_RECOMPILATIONS_DISCARDED(
      "jvm.jit.recompilations.discarded",
      MeterKind.COUNTER,
      null,
      "Of the recompilations, those of a method of the same loaded class (not a copy of it loaded"
          + " again by another class loader): compiled code thrown away, by deoptimisation or by"
          + " flushing, and compiled again. With a roomy code cache that is not being flushed this is"
          + " deoptimisation, which JVMs before JDK 14 have no event for",
      "",
      "JFR `jdk.Compilation`, its method's class (JFR targets: streamed from JDK 16+, read in chunks from JDK 11 and 8u262+)"),
  JVM_JIT_COMPILATION_DURATION(
      "jvm.jit.compilation.duration",
      MeterKind.TIMER,
      "seconds",
      "Duration of each JIT compilation",
      "compiler",
      "JFR `jdk.Compilation` duration"),
  JVM_JIT_COMPILED_CODE(
      "jvm.jit.compiled.code",
      MeterKind.COUNTER,
      BaseUnits.BYTES,
      "Machine code produced by JIT compilations",
      "compiler",
      "JFR `jdk.Compilation` `codeSize`"),
  JVM_JIT_COMPILATION_FAILURES(
      "jvm.jit.compilation.failures",
      MeterKind.COUNTER,
      null,
      "Failed JIT compilations by failure message (most frequent messages, the rest as"
          + " reason=\"other\")",
      "reason",
      "JFR `jdk.CompilationFailure` `failureMessage`"),
  JVM_JIT_DEOPTIMIZATIONS(
      "jvm.jit.deoptimizations",
      MeterKind.COUNTER,
      null,
      "Deoptimizations by reason and action; action=\"make_not_entrant\" counts compiled"
          + " methods invalidated (\"made not entrant\"); the monitoring's own RMI and JFR threads"
          + " are excluded",
      "reason, action",
      "JFR `jdk.Deoptimization` (JDK 14+ targets: the event is missing on JDK 8 and 11)"),
  JVM_JIT_COMPILATION_ENABLED(
      "jvm.jit.compilation.enabled",
      MeterKind.GAUGE,
      null,
      "1 while the JIT compiles, 0 once it stopped compiling because the code cache was full; NaN"
          + " on JDK 8, which has no such command",
      "",
      "JMX DiagnosticCommand `compilerCodecache` status line (JDK 9+: jcmd `Compiler.codecache`"
          + " arrived in JDK 9; live on JDK 11, 17, 21, 25)"),
  JVM_JIT_COMPILER_STOPS(
      "jvm.jit.compiler.stops",
      MeterKind.COUNTER,
      null,
      "Times the JIT stopped compiling because the code cache was full, since the target started"
          + " (JDK 17 keeps 0 here even while compilation is disabled: read"
          + " jvm.jit.compilation.enabled)",
      "",
      "JMX DiagnosticCommand `compilerCodecache` `stopped_count` (JDK 9+; stays 0 on JDK 8)"),
  JVM_JIT_COMPILER_RESTARTS(
      "jvm.jit.compiler.restarts",
      MeterKind.COUNTER,
      null,
      "Times the JIT restarted compiling after the code cache freed up, since the target started",
      "",
      "JMX DiagnosticCommand `compilerCodecache` `restarted_count` (JDK 9+; stays 0 on JDK 8)"),
  JVM_JIT_COMPILER_CPU_USAGE(
      "jvm.jit.compiler.cpu.usage",
      MeterKind.GAUGE,
      null,
      "CPU used by the JIT compiler threads over the last complete 1 s period, as a fraction of"
          + " all CPUs (the scale of process.cpu.usage); NaN while no JFR event has arrived for"
          + " 10 s (a stalled stream's last period is not repeated)",
      "compiler (c1, c2, sweeper)",
      "JFR `jdk.ThreadCPULoad` of the `C1 CompilerThread*`, `C2 CompilerThread*` and `Sweeper"
          + " thread` threads; on targets without JFR (no FlightRecorder MBean), the `cpu=` of those"
          + " threads in two DiagnosticCommand `threadPrint` dumps a poll apart (JDK 11+: JDK 8"
          + " dumps have no `cpu=`, so NaN there)"),
  JVM_JIT_COMPILER_CPU_TIME(
      "jvm.jit.compiler.cpu.time",
      MeterKind.COUNTER,
      "seconds",
      "CPU time used by the JIT compiler threads since the daemon started watching the target:"
          + " rate() gives their average CPU (in cores) over any window, at any scrape interval",
      "compiler (c1, c2, sweeper)",
      "JFR `jdk.ThreadCPULoad` of the compiler threads x `AvailableProcessors` x the 1 s period;"
          + " on targets without JFR, the growth of their `cpu=` between two `threadPrint` dumps"
          + " (JDK 11+; stays 0 on JDK 8)"),
  JVM_JIT_COMPILER_CPU_SHARE(
      "jvm.jit.compiler.cpu.share",
      MeterKind.GAUGE,
      null,
      "Share of the target process's CPU used by all JIT compiler threads (0..1)",
      "",
      "JFR `jdk.ThreadCPULoad` (compiler threads) over `jdk.CPULoad` (`jvmUser` + `jvmSystem`);"
          + " without JFR: `threadPrint` over `OperatingSystem` `ProcessCpuTime` (JDK 11+; NaN on"
          + " JDK 8)"),

  // --- TLS (JFR; only the JDK's own JSSE provider emits these events) ---
  JVM_TLS_HANDSHAKES(
      "jvm.tls.handshakes",
      MeterKind.COUNTER,
      null,
      "TLS handshakes completed by the target, client and server side, by peer (busiest peers,"
          + " the rest as peer=\"other\"), protocol and cipher suite",
      "peer, protocol, cipher",
      "JFR `jdk.TLSHandshake` (JSSE only; off by default in JFR, enabled by the daemon)"),
  JVM_TLS_HANDSHAKES_FULL(
      "jvm.tls.handshakes.full",
      MeterKind.COUNTER,
      null,
      "TLS handshakes that validated a certificate chain (a full handshake: the session was not"
          + " resumed), by peer",
      "peer",
      "JFR `jdk.X509Validation` matched to the next `jdk.TLSHandshake` on the same thread"),
  JVM_TLS_CERTIFICATE_VALIDATIONS(
      "jvm.tls.certificate.validations",
      MeterKind.COUNTER,
      null,
      "Certificate path validations (each certificate of each validated chain)",
      "",
      "JFR `jdk.X509Validation`"),
  JVM_TLS_CERTIFICATE_EXPIRY(
      "jvm.tls.certificate.expiry",
      MeterKind.GAUGE,
      "seconds",
      "Seconds until a certificate expires (negative once expired), for certificates the target"
          + " used in TLS handshakes (validated chains and peer certificates)",
      "subject, serial",
      "JFR `jdk.X509Certificate` `validUntil` of the certificates named by `jdk.X509Validation`"
          + " and `jdk.TLSHandshake` `certificateId` (at most 50, the soonest-expiring)"),

  // --- What the collectors could not see ---
  SENTINEL_GC_NOTIFICATIONS_MISSED(
      "jvm.sentinel.gc.notifications.missed",
      MeterKind.COUNTER,
      null,
      "GC notifications the daemon did not receive: gaps in each collector's GcInfo id, and"
          + " collections that ended while the connection was down (from CollectionCount)",
      "",
      "daemon"),
  SENTINEL_TAG_VALUES_CAPPED(
      "jvm.sentinel.tag.values.capped",
      MeterKind.COUNTER,
      null,
      "Measurements counted under the tag value `other` because the meter already has as many"
          + " distinct values of that tag (or combinations of tags) as it may: the target decides"
          + " how many values there are, the daemon caps the series. A growing count means a"
          + " busy series is hidden in `other`",
      "meter (the capped meter), tag (the capped tag, or combination such as"
          + " `peer,protocol,cipher`)",
      "daemon");

  private final MeterSpec spec;

  Metric(
      String meterName,
      MeterKind kind,
      String baseUnit,
      String description,
      String tagKeys,
      String source) {
    this.spec = new MeterSpec(meterName, kind, baseUnit, description, tagKeys, source);
  }

  @Override
  public MeterSpec spec() {
    return spec;
  }
}
