package dev.kcshare.core.policy.internal;

import dev.kcshare.core.json.internal.CodePoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Seeding of gateways other than Kiro Crew (docs/seeding.md, Other gateways): which entries of an
 * mcphub or 1MCP file get their isolation switch, once per server. Pure: the caller reads the file,
 * finds the verdicts and writes the edit.
 *
 * <p>For each entry, in code-point order of its name:
 *
 * <ol>
 *   <li>not a stdio server → listed, never touched, never marked;
 *   <li>a 1MCP template whose launch holds template variables → listed as not measurable as
 *       written, never touched, never marked;
 *   <li>a 1MCP static server → never written (only templates can be isolated): listed as shared by
 *       every client when its verdict does not recommend sharing;
 *   <li>already marked seeded → skipped;
 *   <li>the entry already sets the switch (either value) → the operator's: marked only;
 *   <li>its verdict recommends sharing → marked only;
 *   <li>otherwise (any other verdict, {@code unknown} included: both gateways share by default) →
 *       the switch is written and the name marked.
 * </ol>
 */
public final class GatewaySeeding {
  private GatewaySeeding() {}

  /** Where an entry sits in the gateway's file. */
  public enum Kind {
    /** mcphub's {@code mcpServers}, or 1MCP's static {@code mcpServers}. */
    SERVER,
    /** 1MCP's {@code mcpTemplates}. */
    TEMPLATE
  }

  /** The gateways with a writer. */
  public enum Gateway {
    /** samanhappy/mcphub: {@code mcpServers.NAME.perSessionClient}. */
    MCPHUB,
    /** 1mcp-app/agent: {@code mcpTemplates.NAME.template.perClient}. */
    ONE_MCP
  }

  /**
   * One entry of the gateway's file, as far as seeding cares.
   *
   * @param name the entry's name in the file
   * @param kind where it sits
   * @param stdio it launches a process over stdio
   * @param templated its launch (command, arguments, env, working directory) holds template
   *     variables
   * @param explicit the entry already sets the isolation switch, or (1MCP) any sharing setting
   */
  public record Entry(String name, Kind kind, boolean stdio, boolean templated, boolean explicit) {
    /** Validates. */
    public Entry {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
    }
  }

  /**
   * What one seed does, each list in code-point order.
   *
   * @param write entries that get the isolation switch set to true
   * @param markSeeded names recorded as seeded (write, keptExplicit and shareRecommended)
   * @param keptExplicit entries whose own setting is kept
   * @param shareRecommended entries left shared because their verdict recommends it
   * @param notStdio entries that are not stdio servers (never touched)
   * @param templated 1MCP templates with template variables (never touched)
   * @param staticShared 1MCP static servers shared by every client that should not be
   */
  public record Plan(
      List<String> write,
      List<String> markSeeded,
      List<String> keptExplicit,
      List<String> shareRecommended,
      List<String> notStdio,
      List<String> templated,
      List<String> staticShared) {
    /** Copies. */
    public Plan {
      write = List.copyOf(write);
      markSeeded = List.copyOf(markSeeded);
      keptExplicit = List.copyOf(keptExplicit);
      shareRecommended = List.copyOf(shareRecommended);
      notStdio = List.copyOf(notStdio);
      templated = List.copyOf(templated);
      staticShared = List.copyOf(staticShared);
    }

    /** Nothing to write and nothing to mark. */
    public boolean isEmpty() {
      return write.isEmpty() && markSeeded.isEmpty();
    }
  }

  /**
   * Plans one seed.
   *
   * @param gateway the gateway whose file the entries come from
   * @param entries the file's entries (names unique)
   * @param seeded the names already marked seeded for this gateway
   * @param recommendsShare whether the verdict for a name recommends sharing (false for no verdict)
   */
  public static Plan plan(
      Gateway gateway, List<Entry> entries, Set<String> seeded, Predicate<String> recommendsShare) {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort((a, b) -> CodePoints.compare(a.name(), b.name()));
    List<String> write = new ArrayList<>();
    List<String> mark = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    List<String> share = new ArrayList<>();
    List<String> notStdio = new ArrayList<>();
    List<String> templated = new ArrayList<>();
    List<String> staticShared = new ArrayList<>();
    for (Entry e : sorted) {
      String name = e.name();
      if (!e.stdio()) {
        notStdio.add(name);
      } else if (gateway == Gateway.ONE_MCP && e.kind() == Kind.TEMPLATE && e.templated()) {
        templated.add(name);
      } else if (gateway == Gateway.ONE_MCP && e.kind() == Kind.SERVER) {
        if (!recommendsShare.test(name)) {
          staticShared.add(name);
        }
      } else if (seeded.contains(name)) {
        continue;
      } else if (e.explicit()) {
        kept.add(name);
        mark.add(name);
      } else if (recommendsShare.test(name)) {
        share.add(name);
        mark.add(name);
      } else {
        write.add(name);
        mark.add(name);
      }
    }
    return new Plan(write, mark, kept, share, notStdio, templated, staticShared);
  }
}
