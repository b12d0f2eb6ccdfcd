package io.jvmsentinel.daemon.tls;

import java.math.BigInteger;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.List;

/**
 * The other encodings of a key that Kubernetes Secrets hold, made from the PKCS#8 the JDK writes:
 * PKCS#1 for RSA (cert-manager's default) and SEC1 for EC (OpenSSL's {@code ecparam -genkey}).
 */
public final class PemEncodings {
  private PemEncodings() {}

  /** The key's own encoding inside PKCS#8: for RSA, the PKCS#1 RSAPrivateKey. */
  public static byte[] pkcs1(PrivateKey key) {
    byte[] der = key.getEncoded();
    DerReader.Element octets = fields(der).get(2);
    return Arrays.copyOfRange(der, octets.contentStart(), octets.end());
  }

  /** The named curve OID of an EC key's PKCS#8 algorithm, as DER (an EC PARAMETERS block). */
  public static byte[] curveOid(PrivateKey key) {
    byte[] der = key.getEncoded();
    DerReader.Element algorithm = fields(der).get(1);
    return DerReader.all(der, algorithm.contentStart(), algorithm.end()).get(1).encoding(der);
  }

  /**
   * SEC1 ECPrivateKey as OpenSSL writes it (RFC 5915): version 1, the private value, the curve in
   * {@code [0]} (left out when {@code withCurve} is false).
   */
  public static byte[] sec1(PrivateKey key, boolean withCurve) {
    byte[] inner = pkcs1(key); // the same slot of PKCS#8 holds the EC key's own encoding
    byte[] privateValue = fields(inner).get(1).encoding(inner);
    return withCurve
        ? Der.sequence(Der.integer(BigInteger.ONE), privateValue, Der.explicit(0, curveOid(key)))
        : Der.sequence(Der.integer(BigInteger.ONE), privateValue);
  }

  private static List<DerReader.Element> fields(byte[] der) {
    DerReader.Element outer = DerReader.first(der, 0, der.length).orElseThrow();
    return DerReader.all(der, outer.contentStart(), outer.end());
  }
}
