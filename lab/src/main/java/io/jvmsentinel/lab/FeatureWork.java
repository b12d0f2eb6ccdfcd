package io.jvmsentinel.lab;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Date;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * A big feature a service switches on late (issue 12, case 2): every request now also parses an XML
 * order, matches regexes, formats dates, hashes and signs, encodes and compresses. Each of these
 * pulls in JDK code the service has never run, so the JIT compiles hundreds of new methods once: a
 * burst of first-time compilations, not churn. Fixed work per call; starts no thread.
 */
final class FeatureWork {

  private static final Pattern SKU = Pattern.compile("([A-Z]{3})-(\\d{4,6})(?:/(\\w+))?");
  private static final Pattern EMAIL = Pattern.compile("[\\w.+-]+@([\\w-]+\\.)+[a-z]{2,}");
  private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
  private static final DateTimeFormatter HUMAN =
      DateTimeFormatter.ofPattern("EEEE d MMMM uuuu, HH:mm:ss", Locale.ROOT);
  private static final DocumentBuilderFactory XML = DocumentBuilderFactory.newInstance();

  private FeatureWork() {}

  /** One request's worth of the feature. */
  static long request(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String order = order(random);
    try {
      long result = parseOrder(order);
      result += regexes(order);
      result += dates(random);
      result += hashes(order);
      result += compress(order);
      result += money(random);
      return result;
    } catch (IOException | SAXException | ParserConfigurationException e) {
      throw new IllegalStateException("the lab's own XML failed to parse", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("a JDK digest or MAC is missing", e);
    }
  }

  private static String order(SplittableRandom random) {
    StringBuilder xml = new StringBuilder("<order id=\"").append(random.nextInt(1_000_000));
    xml.append("\"><customer>buyer").append(random.nextInt(500)).append("@example.org</customer>");
    int lines = 5 + random.nextInt(10);
    for (int i = 0; i < lines; i++) {
      xml.append("<line sku=\"ABC-")
          .append(10_000 + random.nextInt(90_000))
          .append("/v")
          .append(i)
          .append("\" qty=\"")
          .append(1 + random.nextInt(9))
          .append("\">item ")
          .append(i)
          .append("</line>");
    }
    return xml.append("</order>").toString();
  }

  private static long parseOrder(String order)
      throws IOException, SAXException, ParserConfigurationException {
    Document document =
        XML.newDocumentBuilder()
            .parse(new ByteArrayInputStream(order.getBytes(StandardCharsets.UTF_8)));
    NodeList lines = document.getElementsByTagName("line");
    long quantity = 0;
    for (int i = 0; i < lines.getLength(); i++) {
      quantity +=
          Integer.parseInt(lines.item(i).getAttributes().getNamedItem("qty").getNodeValue());
    }
    return quantity + document.getDocumentElement().getAttribute("id").length();
  }

  private static long regexes(String order) {
    Matcher sku = SKU.matcher(order);
    Map<String, Integer> byPrefix = new TreeMap<>();
    while (sku.find()) {
      byPrefix.merge(sku.group(1), Integer.parseInt(sku.group(2)) % 97, Integer::sum);
    }
    Matcher email = EMAIL.matcher(order);
    long found = email.find() ? email.group().length() : 0;
    return found + byPrefix.size() + order.replaceAll("\\s+", " ").split("<line").length;
  }

  private static long dates(SplittableRandom random) {
    Instant instant = Instant.ofEpochSecond(1_600_000_000L + random.nextInt(100_000_000));
    ZonedDateTime time = instant.atZone(ZoneOffset.ofHours(random.nextInt(-11, 12)));
    String iso = ISO.format(time);
    String human = HUMAN.format(time);
    SimpleDateFormat legacy = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ssZ", Locale.ROOT);
    legacy.setTimeZone(TimeZone.getTimeZone("UTC"));
    String old = legacy.format(Date.from(instant));
    return ZonedDateTime.parse(iso, ISO).toEpochSecond() % 1000 + human.length() + old.length();
  }

  private static long hashes(String order) throws GeneralSecurityException {
    byte[] bytes = order.getBytes(StandardCharsets.UTF_8);
    byte[] sha = MessageDigest.getInstance("SHA-256").digest(bytes);
    byte[] md5 = MessageDigest.getInstance("MD5").digest(bytes);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(md5, "HmacSHA256"));
    String signature = Base64.getUrlEncoder().encodeToString(mac.doFinal(sha));
    return Base64.getUrlDecoder().decode(signature).length + sha[0] + md5[0];
  }

  private static long compress(String order) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DeflaterOutputStream deflate =
        new DeflaterOutputStream(out, new Deflater(Deflater.BEST_SPEED))) {
      deflate.write(order.getBytes(StandardCharsets.UTF_8));
    }
    return out.size();
  }

  private static long money(SplittableRandom random) {
    BigDecimal total =
        IntStream.range(0, 20)
            .mapToObj(i -> BigDecimal.valueOf(random.nextInt(100_000), 2))
            .reduce(BigDecimal.ZERO, BigDecimal::add);
    BigDecimal vat = total.multiply(new BigDecimal("0.21")).setScale(2, RoundingMode.HALF_EVEN);
    String summary =
        IntStream.range(0, 5)
            .mapToObj(i -> String.format(Locale.ROOT, "%08.2f", vat.doubleValue() / (i + 1)))
            .collect(Collectors.joining(";"));
    return vat.unscaledValue().longValue() % 1000 + summary.length();
  }
}
