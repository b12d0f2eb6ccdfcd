package io.jvmsentinel.daemon.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A target as written, with where it came from, so problems can point back at it.
 *
 * @param where how problems name it: {@code targets[1]} or {@code --target localhost:9010}
 * @param path its key path in the file, to skip values already reported as unreadable; empty for
 *     targets from the command line
 * @param raw the settings as written
 * @param baseDir the directory relative {@code passwordFile} paths start from
 */
record TargetSource(String where, Optional<String> path, ConfigDocument.Target raw, Path baseDir) {}
