package io.jvmsentinel.daemon.alert.rules;

import io.jvmsentinel.daemon.alert.AlertRule;
import java.util.List;

/** The one explicit list of detection rules. */
public final class Rules {
  private Rules() {}

  public static List<AlertRule> all() {
    return List.of(
        new ThreadStormRule(),
        new CodeCacheNearFullRule(),
        new CodeCacheFullRule(),
        new CodeCacheChurnRule(),
        new ClassLoaderChurnRule(),
        new CompilerCpuHighRule(),
        new DeoptimizationStormRule(),
        new GcOverheadRule(),
        new TlsHandshakeStormRule(),
        new LockContentionRule(),
        new TargetDownRule());
  }
}
