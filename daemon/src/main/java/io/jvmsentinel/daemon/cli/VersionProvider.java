package io.jvmsentinel.daemon.cli;

import picocli.CommandLine;

/** The version from the jar manifest ("dev" when running from classes). */
public final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"jvm-sentinel " + version(), "running on Java " + Runtime.version()};
  }

  public static String version() {
    String version = VersionProvider.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
