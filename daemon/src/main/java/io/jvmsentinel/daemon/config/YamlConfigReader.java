package io.jvmsentinel.daemon.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
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
                  .addDeserializer(JmxAddress.class, ScalarDeserializer.jmxAddress()))
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
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
    try (TrackingParser p = new TrackingParser(MAPPER.createParser(text), reporter)) {
      if (p.nextToken() == null) {
        problems.add(file + ": the file is empty; it needs at least a 'targets:' list");
        return Optional.empty();
      }
      ConfigDocument doc =
          MAPPER
              .readerFor(ConfigDocument.class)
              .withHandler(new CollectingProblemHandler(reporter))
              .withAttribute(YamlReporter.class, reporter)
              .readValue(p);
      if (p.nextToken() != null) {
        reporter.reportAt(
            p.currentTokenLocation(), "", "only one YAML document is allowed in the file");
      }
      return Optional.ofNullable(doc); // null: the root was not a map, already reported
    } catch (JsonParseException e) {
      problems.add(
          YamlReporter.where(file, e.getLocation()) + "malformed YAML: " + e.getOriginalMessage());
    } catch (JsonMappingException e) {
      // Whatever the handler could not absorb: report it with what we know and stop.
      problems.add(YamlReporter.where(file, e.getLocation()) + e.getOriginalMessage());
    } catch (IOException e) {
      problems.add(file + ": " + e.getMessage());
    }
    return Optional.empty();
  }
}
