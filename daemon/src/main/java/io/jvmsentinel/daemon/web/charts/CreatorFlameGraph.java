package io.jvmsentinel.daemon.web.charts;

import io.jvmsentinel.collectors.jfr.threads.ThreadStartReport;
import io.jvmsentinel.daemon.alert.rules.KnownCause;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The thread-start flame graph of a window: the creator sites' sample stacks merged into a tree,
 * top frame ({@code Thread.start}) at the root and callers below it, each weighted by its site's
 * starts. The frame a known cause names ({@link KnownCause}) carries the cause, so the page can
 * label it. Bounded: at most the report's sites, each at most its recorded stack depth.
 *
 * @param totalStarts thread starts in the window (exact)
 * @param sampledStarts the starts attributed to the sites (a sample at high start rates)
 * @param root a synthetic root whose children are the stacks' top frames
 * @param sites the creator sites, busiest first, with the names of their threads
 */
public record CreatorFlameGraph(
    long totalStarts, long sampledStarts, Node root, List<ThreadStartReport.Site> sites) {

  /**
   * The root frame: every start goes through it. The sample stacks begin at the creator (the
   * thread-start and executor plumbing frames are cut when the site is found), so it is added here.
   */
  public static final String ROOT = "java.lang.Thread.start";

  /**
   * One frame.
   *
   * @param name {@code Class.method:line}, or the site when its stack is unknown
   * @param value starts through this frame
   * @param cause the known cause this frame is the creator of, or null
   * @param children callers, widest first
   */
  public record Node(String name, long value, KnownCauseLabel cause, List<Node> children) {
    public Node {
      children = List.copyOf(children);
    }
  }

  /** A known cause as the page labels it. */
  public record KnownCauseLabel(String id, String title) {}

  public static CreatorFlameGraph of(ThreadStartReport report) {
    Builder root = new Builder(ROOT);
    for (ThreadStartReport.Site site : report.sites()) {
      Optional<KnownCause> cause = KnownCause.of(site);
      List<String> stack = site.sampleStack().isEmpty() ? List.of(site.site()) : site.sampleStack();
      root.value += site.count();
      Builder node = root;
      for (String frame : stack) {
        node = node.child(frame);
        node.value += site.count();
        if (cause.isPresent() && method(frame).equals(cause.get().site())) {
          node.cause = new KnownCauseLabel(cause.get().id(), cause.get().title());
        }
      }
    }
    return new CreatorFlameGraph(
        report.totalStarts(), report.sampledStarts(), root.build(), report.sites());
  }

  /** {@code Class.method} of a {@code Class.method:line} frame. */
  static String method(String frame) {
    int colon = frame.lastIndexOf(':');
    return colon < 0 ? frame : frame.substring(0, colon);
  }

  private static final class Builder {
    final String name;
    long value;
    KnownCauseLabel cause;
    final Map<String, Builder> children = new LinkedHashMap<>();

    Builder(String name) {
      this.name = name;
    }

    Builder child(String frame) {
      return children.computeIfAbsent(frame, Builder::new);
    }

    Node build() {
      List<Node> built = new ArrayList<>();
      children.values().forEach(child -> built.add(child.build()));
      built.sort((a, b) -> Long.compare(b.value(), a.value()));
      return new Node(name, value, cause, built);
    }
  }
}
