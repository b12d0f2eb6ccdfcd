package io.jvmsentinel.daemon.observability;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects, for checking dashboards and rules against what the
 * daemon exports. Not a parser: a tokenizer that knows which identifiers are not metric names
 * (functions, aggregation operators, keywords, label lists of {@code by/without/on/ignoring/
 * group_left/group_right}, matchers inside braces, durations in brackets, strings, numbers and
 * Grafana variables such as {@code $__rate_interval}). Grafana's {@code label_values(selector,
 * label)} variable queries are understood too: only the selector names a metric.
 */
final class PromQlMetricNames {
  private static final Pattern TOKEN =
      Pattern.compile(
          "(?<string>\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`)"
              + "|(?<comment>#[^\\n]*)"
              + "|(?<number>\\d[\\w.]*)"
              + "|(?<variable>\\$\\{?[a-zA-Z_][a-zA-Z0-9_]*\\}?)"
              + "|(?<ident>[a-zA-Z_:][a-zA-Z0-9_:]*)"
              + "|(?<open>[({\\[])"
              + "|(?<close>[)}\\]])"
              + "|(?<other>\\S)");

  /** Aggregation operators and binary or modifier keywords: never metric names. */
  private static final Set<String> KEYWORDS =
      Set.of(
          "sum",
          "min",
          "max",
          "avg",
          "group",
          "stddev",
          "stdvar",
          "count",
          "count_values",
          "bottomk",
          "topk",
          "quantile",
          "limitk",
          "limit_ratio",
          "and",
          "or",
          "unless",
          "offset",
          "bool",
          "inf",
          "nan",
          "start",
          "end");

  /** Keywords followed by a parenthesised list of label names. */
  private static final Set<String> LABEL_LISTS =
      Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

  private static final Pattern LABEL_VALUES =
      Pattern.compile("^\\s*label_values\\s*\\((.*),\\s*[a-zA-Z_][a-zA-Z0-9_]*\\s*\\)\\s*$");

  private PromQlMetricNames() {}

  /** The metric names in a PromQL expression or a Grafana variable query, in order of use. */
  static Set<String> of(String expression) {
    Matcher labelValues = LABEL_VALUES.matcher(expression);
    if (labelValues.matches()) {
      return of(labelValues.group(1));
    }
    Set<String> names = new LinkedHashSet<>();
    Matcher m = TOKEN.matcher(expression);
    int skipDepth = 0; // > 0 inside {...}, [...] or a label list: nothing there is a metric name
    boolean labelListNext = false;
    while (m.find()) {
      if (m.group("string") != null
          || m.group("comment") != null
          || m.group("number") != null
          || m.group("variable") != null
          || m.group("other") != null) {
        continue;
      }
      if (m.group("open") != null) {
        String open = m.group("open");
        if (skipDepth > 0 || !open.equals("(") || labelListNext) {
          skipDepth++;
        }
        labelListNext = false;
        continue;
      }
      if (m.group("close") != null) {
        if (skipDepth > 0) {
          skipDepth--;
        }
        continue;
      }
      String ident = m.group("ident");
      if (skipDepth > 0) {
        continue;
      }
      if (LABEL_LISTS.contains(ident)) {
        labelListNext = true;
        continue;
      }
      if (KEYWORDS.contains(ident) || nextIsOpenParen(expression, m.end())) {
        continue; // an aggregation, keyword or function call
      }
      names.add(ident);
    }
    return names;
  }

  private static boolean nextIsOpenParen(String expression, int from) {
    for (int i = from; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (!Character.isWhitespace(c)) {
        return c == '(';
      }
    }
    return false;
  }
}
