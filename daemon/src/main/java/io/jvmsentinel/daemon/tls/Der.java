package io.jvmsentinel.daemon.tls;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The few DER encodings an X.509 certificate is made of (X.690), for {@link NodeCa}: the JDK signs
 * and parses certificates but has no public API to build one. What this writes is read back by the
 * JDK's own {@code CertificateFactory} before use, so a wrong encoding fails there, loudly.
 */
final class Der {
  private static final DateTimeFormatter UTC_TIME =
      DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter GENERALIZED_TIME =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);

  private Der() {}

  static byte[] sequence(byte[]... parts) {
    return tagged(0x30, concat(parts));
  }

  static byte[] set(byte[]... parts) {
    return tagged(0x31, concat(parts));
  }

  static byte[] integer(BigInteger value) {
    return tagged(0x02, value.toByteArray());
  }

  static byte[] bool(boolean value) {
    return tagged(0x01, new byte[] {value ? (byte) 0xff : 0});
  }

  static byte[] utf8(String text) {
    return tagged(0x0c, text.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] nul() {
    return new byte[] {0x05, 0x00};
  }

  static byte[] octetString(byte[] content) {
    return tagged(0x04, content);
  }

  /** A bit string of whole bytes, or with {@code unusedBits} trailing bits of the last unused. */
  static byte[] bitString(int unusedBits, byte[] bits) {
    byte[] content = new byte[bits.length + 1];
    content[0] = (byte) unusedBits;
    System.arraycopy(bits, 0, content, 1, bits.length);
    return tagged(0x03, content);
  }

  /** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
  static byte[] time(Instant instant) {
    boolean utc = instant.atZone(ZoneOffset.UTC).getYear() < 2050;
    String text = (utc ? UTC_TIME : GENERALIZED_TIME).format(instant);
    return tagged(utc ? 0x17 : 0x18, text.getBytes(StandardCharsets.US_ASCII));
  }

  static byte[] oid(String dotted) {
    String[] arcs = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
    for (int i = 2; i < arcs.length; i++) {
      long arc = Long.parseLong(arcs[i]);
      int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
      for (int group = groups - 1; group >= 0; group--) {
        int bits = (int) ((arc >>> (7 * group)) & 0x7f);
        out.write(group == 0 ? bits : bits | 0x80);
      }
    }
    return tagged(0x06, out.toByteArray());
  }

  /** {@code [n] EXPLICIT}: the content's own encoding wrapped in a constructed context tag. */
  static byte[] explicit(int n, byte[] encoded) {
    return tagged(0xa0 | n, encoded);
  }

  /**
   * {@code [n] IMPLICIT} of a primitive type: the content with a context tag instead of its own.
   */
  static byte[] implicit(int n, byte[] content) {
    return tagged(0x80 | n, content);
  }

  static byte[] tagged(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
