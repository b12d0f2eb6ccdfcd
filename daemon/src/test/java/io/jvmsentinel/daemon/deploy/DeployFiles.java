package io.jvmsentinel.daemon.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.jvmsentinel.daemon.config.ConfigException;
import io.jvmsentinel.daemon.config.ConfigLoader;
import io.jvmsentinel.daemon.config.SentinelConfig;
import io.jvmsentinel.daemon.testing.Jdks;
import io.jvmsentinel.daemon.testing.TestCertificates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** Shared fixtures of the deploy/ tests: the files, YAML parsing, and loading example configs. */
final class DeployFiles {
  static final YAMLMapper YAML = new YAMLMapper();

  private DeployFiles() {}

  static Path repo() {
    return Jdks.repoRoot();
  }

  static Path deploy() {
    return repo().resolve("deploy");
  }

  /** Every YAML document of a file (Kubernetes files hold several, separated by ---). */
  static List<JsonNode> documents(Path file) {
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
          docs.add(doc);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(file + " is not valid YAML", e);
    }
    return docs;
  }

  static JsonNode single(Path file) {
    List<JsonNode> docs = documents(file);
    if (docs.size() != 1) {
      throw new AssertionError(file + ": expected one YAML document, found " + docs.size());
    }
    return docs.get(0);
  }

  static List<Path> filesUnder(Path dir, String... suffixes) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> Stream.of(suffixes).anyMatch(s -> f.getFileName().toString().endsWith(s)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The values of every field, at any depth, whose name ends with {@code suffix}. */
  static List<String> valuesOfKeysEndingWith(JsonNode node, String suffix) {
    List<String> values = new ArrayList<>();
    collect(node, suffix, values);
    return values;
  }

  private static void collect(JsonNode node, String suffix, List<String> values) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        if (field.getKey().endsWith(suffix) && field.getValue().isTextual()) {
          values.add(field.getValue().asText());
        }
        collect(field.getValue(), suffix, values);
      }
    } else if (node.isArray()) {
      node.forEach(child -> collect(child, suffix, values));
    }
  }

  /**
   * Loads a daemon configuration text through the real {@link ConfigLoader}, the way the daemon
   * would in its container: every {@code ...Env} it names is set, and every {@code ...File} it
   * names exists. Absolute secret paths (a Kubernetes or Docker secret mount) are moved under
   * {@code dir}; the file is written to {@code dir} so relative paths resolve there.
   */
  /** What the downward API would give a pod: an example value per field. */
  private static final Map<String, String> DOWNWARD_API =
      Map.of(
          "metadata.namespace", "shop",
          "metadata.name", "orders-7d9f8-x2k4p",
          "spec.nodeName", "node-1");

  /**
   * A container's environment as the kubelet would set it: literal values, and the downward API's
   * fields with {@link #DOWNWARD_API}'s example values; other sources (Secrets) are left out.
   */
  static Map<String, String> environment(JsonNode container) {
    Map<String, String> env = new HashMap<>();
    for (JsonNode variable : container.path("env")) {
      String name = variable.path("name").asText();
      if (variable.has("value")) {
        env.put(name, variable.get("value").asText());
      }
      String field = variable.at("/valueFrom/fieldRef/fieldPath").asText();
      if (DOWNWARD_API.containsKey(field)) {
        env.put(name, DOWNWARD_API.get(field));
      }
    }
    return env;
  }

  static SentinelConfig loadExample(String yaml, String fileName, Path dir)
      throws IOException, ConfigException {
    return loadExample(yaml, fileName, dir, Map.of());
  }

  /** As above, with these environment variables set as well (a downward API value). */
  static SentinelConfig loadExample(
      String yaml, String fileName, Path dir, Map<String, String> variables)
      throws IOException, ConfigException {
    JsonNode tree = YAML.readTree(yaml);
    Map<String, String> env = new HashMap<>(variables);
    for (String variable : valuesOfKeysEndingWith(tree, "Env")) {
      // A URL works for every secret the daemon reads: passwords, Slack URL, PagerDuty key.
      env.put(variable, "https://hooks.slack.com/services/T0000/B0000/example");
    }
    String text = yaml;
    for (String secretFile : valuesOfKeysEndingWith(tree, "File")) {
      Path target;
      if (secretFile.startsWith("/")) {
        target = dir.resolve("mounts").resolve(secretFile.substring(1));
        text = text.replace(": " + secretFile, ": " + target);
      } else {
        target = dir.resolve(secretFile);
      }
      Files.createDirectories(target.getParent());
      Files.writeString(target, "example-secret\n");
    }
    text = withExampleStores(tree, text, env, dir);
    Path config = dir.resolve(fileName);
    Files.writeString(config, text);
    return new ConfigLoader(env::get).load(config);
  }

  /**
   * Real PKCS12 stores wherever the example names a {@code keyStore} or {@code trustStore}: the
   * loader opens them, with the password the example's env variable or file will hold.
   */
  private static String withExampleStores(
      JsonNode tree, String text, Map<String, String> env, Path dir) throws IOException {
    List<JsonNode> owners = new ArrayList<>();
    tree.findParents("keyStore").forEach(owners::add);
    tree.findParents("trustStore").forEach(owners::add);
    TestCertificates pki = new TestCertificates(Files.createDirectories(dir.resolve("pki")));
    int n = 0;
    for (JsonNode owner : owners) {
      for (String key : List.of("keyStore", "trustStore")) {
        if (!owner.hasNonNull(key)) {
          continue;
        }
        String file = owner.get(key).asText();
        String password =
            owner.hasNonNull(key + "PasswordEnv")
                ? env.get(owner.get(key + "PasswordEnv").asText())
                : "example-secret";
        Path target =
            file.startsWith("/")
                ? dir.resolve("mounts").resolve(file.substring(1))
                : dir.resolve(file);
        if (Files.exists(target)) {
          continue;
        }
        TestCertificates.Identity identity = pki.identity("example-" + n++, password);
        Path made =
            key.equals("keyStore")
                ? identity.keyStore()
                : pki.trustStore("example-" + n++, password, identity);
        Files.createDirectories(target.getParent());
        Files.move(made, target);
        if (file.startsWith("/")) {
          text = text.replace(": " + file, ": " + target);
        }
      }
    }
    return text;
  }

  static Optional<JsonNode> byName(JsonNode array, String name) {
    for (JsonNode item : array) {
      if (name.equals(item.path("name").asText())) {
        return Optional.of(item);
      }
    }
    return Optional.empty();
  }
}
