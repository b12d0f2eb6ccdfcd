package io.jvmsentinel.daemon.config;

import java.nio.file.Path;

/**
 * A key store or trust store file (PKCS12, or JKS) and its password, already read from its
 * environment variable or file. {@code toString()} shows the path, never the password.
 *
 * @param path absolute or relative to the daemon's working directory
 * @param password opens the store and, for a key store, its private key
 */
public record StoreFile(Path path, Secret password) {}
