package io.jvmsentinel.daemon.alert;

import io.jvmsentinel.daemon.alert.rules.CodeCacheChurnRule;
import io.jvmsentinel.daemon.alert.rules.CodeCacheFullRule;
import io.jvmsentinel.daemon.alert.rules.CodeCacheNearFullRule;
import io.jvmsentinel.daemon.alert.rules.CompilerCpuHighRule;
import io.jvmsentinel.daemon.alert.rules.DeoptimizationStormRule;
import io.jvmsentinel.daemon.alert.rules.GcOverheadRule;
import io.jvmsentinel.daemon.alert.rules.LockContentionRule;
import io.jvmsentinel.daemon.alert.rules.TargetDownRule;
import io.jvmsentinel.daemon.alert.rules.ThreadStormRule;
import io.jvmsentinel.daemon.alert.rules.TlsHandshakeStormRule;
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
        new CompilerCpuHighRule(),
        new DeoptimizationStormRule(),
        new GcOverheadRule(),
        new TlsHandshakeStormRule(),
        new LockContentionRule(),
        new TargetDownRule());
  }
}
