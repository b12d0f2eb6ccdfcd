package io.jvmsentinel.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The lab runs on JDK 11 targets: every lab class must be Java 11 bytecode (major 55). */
class LabBytecodeTest {
  @Test
  void everyLabClassIsJava11Bytecode() throws Exception {
    Path labPackage = classesDir().resolve("io/jvmsentinel/lab");
    List<Path> classes;
    try (Stream<Path> files = Files.walk(labPackage)) {
      classes = files.filter(f -> f.toString().endsWith(".class")).toList();
    }
    assertThat(classes).isNotEmpty();
    for (Path file : classes) {
      assertThat(majorVersion(file)).as(file.toString()).isEqualTo(55);
    }
  }

  private static Path classesDir() throws URISyntaxException {
    return Path.of(LabMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static int majorVersion(Path classFile) throws Exception {
    try (InputStream in = Files.newInputStream(classFile);
        DataInputStream data = new DataInputStream(in)) {
      data.readInt(); // magic
      data.readUnsignedShort(); // minor
      return data.readUnsignedShort();
    }
  }
}
