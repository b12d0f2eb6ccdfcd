package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads the YAML file into a {@link ConfigDocument}, recording every problem it meets with its
 * file, line, column and key path. Returns empty only when nothing usable could be read.
 */
final class YamlConfigReader {
  private static final ObjectMapper MAPPER =
      YAMLMapper.builder(new YAMLFactory())
          .addModule(
              new SimpleModule("jvm-sentinel-config")
                  .addDeserializer(String.class, ScalarDeserializer.text())
                  .addDeserializer(Long.class, ScalarDeserializer.integer())
                  .addDeserializer(Duration.class, ScalarDeserializer.duration())
                  .addDeserializer(HostPort.class, ScalarDeserializer.hostPort())
                  .addDeserializer(JmxAddress.class, ScalarDeserializer.jmxAddress())
                  .addDeserializer(DogStatsdAddress.class, ScalarDeserializer.dogStatsdAddress())
                  .addDeserializer(Pattern.class, ScalarDeserializer.pattern()))
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .withCoercionConfigDefaults(
              // "http: ''" reads like "http:" (absent) instead of stopping at a coercion error.
              c -> c.setCoercion(CoercionInputShape.EmptyString, CoercionAction.AsNull))
          .build();

  private YamlConfigReader() {}

  static Optional<ConfigDocument> read(Path file, Problems problems) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      problems.add("config file not found: " + file);
      return Optional.empty();
    } catch (AccessDeniedException e) {
      problems.add("cannot read config file " + file + ": permission denied");
      return Optional.empty();
    } catch (CharacterCodingException e) {
      problems.add("cannot read config file " + file + ": it is not UTF-8 text");
      return Optional.empty();
    } catch (IOException e) {
      problems.add("cannot read config file " + file + ": " + e);
      return Optional.empty();
    }
    return parse(file.toString(), text, problems);
  }

  private static Optional<ConfigDocument> parse(String file, String text, Problems problems) {
    YamlReporter reporter = new YamlReporter(file, problems);
    try {
      return parse(text, reporter, problems, file);
    } finally {
      reporter.flush();
    }
  }

  private static Optional<ConfigDocument> parse(
      String text, YamlReporter reporter, Problems problems, String file) {
    try (TrackingParser p = new TrackingParser(MAPPER.createParser(text), reporter)) {
      if (p.nextToken() == null) {
        problems.add(file + ": the file is empty; it needs at least a 'targets:' list");
        return Optional.empty();
      }
      ConfigDocument doc =
          MAPPER
              .readerFor(ConfigDocument.class)
              .withHandler(new CollectingProblemHandler(reporter, p))
              .withAttribute(YamlReporter.class, reporter)
              .readValue(p);
      if (p.nextToken() != null) {
        reporter.reportAt(
            p.currentTokenLocation(), "", "only one YAML document is allowed in the file");
      }
      return Optional.ofNullable(doc); // null: the root was not a map, already reported
    } catch (JsonMappingException e) {
      Optional<MarkedYAMLException> yaml = yamlCause(e);
      if (yaml.isPresent()) {
        problems.add(malformed(file, yaml.get()));
      } else {
        // Whatever the handler could not absorb: report it with what we know, and stop.
        String path = pathOf(e);
        problems.add(
            YamlReporter.where(file, e.getLocation())
                + (path.isEmpty() ? "" : "'" + path + "': ")
                + e.getOriginalMessage());
      }
    } catch (JsonParseException e) {
      problems.add(
          yamlCause(e)
              .map(yaml -> malformed(file, yaml))
              .orElse(
                  YamlReporter.where(file, e.getLocation())
                      + "malformed YAML: "
                      + e.getOriginalMessage()));
    } catch (IOException e) {
      problems.add(file + ": " + e.getMessage());
    }
    return Optional.empty();
  }

  // SnakeYAML's own exception says what is wrong in one line; Jackson's message adds a snippet.
  private static Optional<MarkedYAMLException> yamlCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkedYAMLException yaml) {
        return Optional.of(yaml);
      }
    }
    return Optional.empty();
  }

  private static String malformed(String file, MarkedYAMLException e) {
    Mark at = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
    String where =
        at == null
            ? file + ": "
            : file + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1) + ": ";
    String context = e.getContext() == null ? "" : " (" + e.getContext() + ")";
    return where + "malformed YAML: " + e.getProblem() + context;
  }

  private static String pathOf(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }
}
