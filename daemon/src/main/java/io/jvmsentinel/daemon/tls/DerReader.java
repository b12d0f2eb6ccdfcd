package io.jvmsentinel.daemon.tls;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Just enough DER reading (X.690) to walk one level of a structure: single-byte tags, definite
 * lengths. For {@link PemKeys}, which needs the curve of a SEC1 EC key; anything malformed reads as
 * absent, and the JDK's own parser then judges the key.
 */
final class DerReader {
  private DerReader() {}

  /** One element of {@code der}: its tag and where its content lies. */
  record Element(int tag, int start, int contentStart, int end) {
    /** The whole element: tag, length and content. */
    byte[] encoding(byte[] der) {
      return Arrays.copyOfRange(der, start, end);
    }
  }

  /** The element at {@code offset}, if one fits before {@code limit}. */
  static Optional<Element> first(byte[] der, int offset, int limit) {
    if (offset + 2 > limit) {
      return Optional.empty();
    }
    int tag = der[offset] & 0xff;
    int length = der[offset + 1] & 0xff;
    int contentStart = offset + 2;
    if (length >= 0x80) {
      int bytes = length & 0x7f;
      if (bytes == 0 || bytes > 3 || contentStart + bytes > limit) {
        return Optional.empty(); // indefinite, or longer than any key
      }
      length = 0;
      for (int i = 0; i < bytes; i++) {
        length = (length << 8) | (der[contentStart + i] & 0xff);
      }
      contentStart += bytes;
    }
    int end = contentStart + length;
    return end > limit
        ? Optional.empty()
        : Optional.of(new Element(tag, offset, contentStart, end));
  }

  /** The elements from {@code offset} to {@code limit}, up to the first that does not fit. */
  static List<Element> all(byte[] der, int offset, int limit) {
    List<Element> elements = new ArrayList<>();
    int at = offset;
    Optional<Element> next;
    while ((next = first(der, at, limit)).isPresent()) {
      elements.add(next.get());
      at = next.get().end();
    }
    return elements;
  }
}
