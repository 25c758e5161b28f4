package dev.kcshare.cli;

import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.policy.DefinitionFacts;
import dev.kcshare.core.records.internal.IdentityDifference;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.verdict.ReasonCode;
import dev.kcshare.host.config.ConfigFormat;
import dev.kcshare.host.config.Conflict;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What is true about a configured server beyond its verdict, in words for people: that its
 * definitions conflict (so no pre-flight counts and {@code measure} refuses it), or that it is
 * disabled (so it is never spawned), each with where to fix it. Shared by {@code assess}, {@code
 * measure} and {@code seed} so they say the same thing.
 */
final class ServerNotes {
  private ServerNotes() {}

  /** Whether kcshare never spawns the server: the definition it would spawn is disabled. */
  static boolean disabled(ConfiguredServer server) {
    return server.first().definition().disabled();
  }

  /** A short note for the table's reason column, or null when there is nothing to add. */
  static @Nullable String headline(ConfiguredServer server) {
    if (server.isConflicting()) {
      return "conflicting definitions";
    }
    if (server.first().unmeasurable() != null) {
      return "template with variables";
    }
    if (disabled(server)) {
      return "disabled";
    }
    return null;
  }

  /**
   * What would change a {@code not_probed} or {@code preflight_not_run} reason for this server, or
   * {@code fallback} when neither a conflict nor a disabled definition stands in the way.
   */
  static String change(ConfiguredServer server, ReasonCode code, String fallback) {
    if (code != ReasonCode.NOT_PROBED && code != ReasonCode.PREFLIGHT_NOT_RUN) {
      return fallback;
    }
    String name = name(server);
    if (server.isConflicting()) {
      return "make its definitions agree (see below), then run `kcshare measure " + name + "`";
    }
    if (server.first().unmeasurable() != null) {
      return "nothing kcshare can measure: 1MCP renders it for each client (see below)";
    }
    if (disabled(server)) {
      return "enable it (see below), then run `kcshare measure " + name + "`";
    }
    return fallback;
  }

  /**
   * The lines {@code assess NAME} prints about the server's definitions: the conflict with every
   * definition and how to resolve it, or where it is disabled and how to enable it, else where each
   * definition is. Each line is indented by two spaces and escaped.
   */
  static List<String> detail(ConfiguredServer server) {
    List<String> out = new ArrayList<>();
    Conflict conflict = Conflict.of(server);
    if (conflict != null) {
      out.add("  definitions conflict: " + conflict.reason() + ":");
      for (String line : definitionLines(conflict.definitions())) {
        out.add("    " + line);
      }
      String differ = differences(conflict.definitions());
      if (!differ.isEmpty()) {
        out.add("    they differ in: " + differ);
      }
      out.add(
          "  pre-flight evidence is not used and kcshare measure refuses this server until they"
              + " agree.");
      out.add("  to resolve it: " + resolution(server));
      return out;
    }
    String unmeasurable = server.first().unmeasurable();
    if (unmeasurable != null) {
      out.add("  not measurable: " + unmeasurable + "; kcshare never spawns it.");
    } else if (disabled(server)) {
      out.add(
          "  disabled: kcshare never spawns a disabled server, so it stays not measured. To"
              + " enable it:");
      for (ConfiguredDefinition d : server.configured()) {
        if (d.definition().disabled()) {
          out.add("    " + enableHint(d));
        }
      }
    } else {
      for (ConfiguredDefinition d : server.configured()) {
        if (d.definition().disabled()) {
          out.add(
              "  marked disabled in "
                  + where(d)
                  + " (kcshare measures the definition in "
                  + where(server.first())
                  + ")");
        }
      }
    }
    for (ConfiguredDefinition d : server.configured()) {
      out.add("  defined in: " + where(d));
    }
    return out;
  }

  /**
   * The refusal of {@code measure NAME} for a conflicting name (exit 2), naming every definition.
   */
  static String measureRefusal(ConfiguredServer server) {
    Conflict conflict = Conflict.of(server);
    if (conflict == null) {
      throw new IllegalArgumentException("no conflict: " + server.name());
    }
    StringBuilder b = new StringBuilder();
    b.append("cannot measure ")
        .append(Escaper.quoted(server.name(), Escaper.SHORT_LIMIT))
        .append(": its definitions conflict (")
        .append(conflict.reason())
        .append(")");
    for (String line : definitionLines(conflict.definitions())) {
      b.append(System.lineSeparator()).append("  ").append(line);
    }
    String differ = differences(conflict.definitions());
    if (!differ.isEmpty()) {
      b.append(System.lineSeparator()).append("  they differ in: ").append(differ);
    }
    b.append(System.lineSeparator())
        .append("a measurement of one could not be attributed to the others; ")
        .append(resolution(server));
    return b.toString();
  }

  /**
   * The refusal of {@code measure NAME} (exit 2) for a server a pass never spawns and whose
   * definitions agree ({@link ConfiguredServer#refusal}): why, and how to change it where the
   * operator can.
   */
  static String notSpawned(ConfiguredServer server) {
    String refusal = server.refusal();
    ConfiguredDefinition first = server.first();
    String why;
    if (DefinitionFacts.DISABLED.equals(refusal)) {
      why = "it is disabled (the operator withheld consent); to measure it, " + enableHint(first);
    } else if (DefinitionFacts.NO_COMMAND.equals(refusal)) {
      why =
          first.isStdio()
              ? "it has no command to start"
              : "it is not a stdio server (kcshare measures only the servers it starts itself)";
    } else {
      why = String.valueOf(refusal);
    }
    return "cannot measure " + Escaper.quoted(server.name(), Escaper.SHORT_LIMIT) + ": " + why;
  }

  /** The line {@code measure --all} prints for a conflicting name it skips. */
  static String measureSkip(ConfiguredServer server) {
    return "skipped "
        + name(server)
        + ": its definitions conflict (see kcshare assess "
        + name(server)
        + ")";
  }

  /** How to resolve a conflict. */
  private static String resolution(ConfiguredServer server) {
    return "make the definitions identical (or remove all but one), or pass --config FILE to read"
        + " only the file whose definition you mean; then run kcshare measure "
        + name(server);
  }

  /** One line per definition: where it is and what it launches (env names only, never values). */
  private static List<String> definitionLines(List<ConfiguredDefinition> definitions) {
    List<String> out = new ArrayList<>();
    for (ConfiguredDefinition d : definitions) {
      ServerDefinition def = d.definition();
      StringBuilder line = new StringBuilder(where(d)).append(": ");
      if (d.isStdio() && def.command() != null) {
        line.append(ConfigCommand.commandLine(def.command(), def.shownArgs()));
        if (!def.env().isEmpty()) {
          List<String> names = new ArrayList<>();
          for (String n : d.envNames()) {
            names.add(Escaper.esc(n, Escaper.SHORT_LIMIT));
          }
          line.append("  env: ").append(String.join(", ", names));
        }
      } else {
        line.append("not stdio");
        if (def.type() != null) {
          line.append(", type ").append(Escaper.esc(def.type(), Escaper.SHORT_LIMIT));
        }
        String url = def.shownUrl();
        if (url != null) {
          line.append(", url ").append(Escaper.esc(url, Escaper.LONG_LIMIT));
        }
      }
      if (def.disabled()) {
        line.append("  (disabled)");
      }
      out.add(line.toString());
    }
    return out;
  }

  /** What the definitions differ in, compared with the first; empty when not all are stdio. */
  private static String differences(List<ConfiguredDefinition> definitions) {
    ConfiguredDefinition first = definitions.get(0);
    Set<IdentityDifference.Part> parts = EnumSet.noneOf(IdentityDifference.Part.class);
    for (ConfiguredDefinition d : definitions) {
      if (first.identity() == null || d.identity() == null) {
        return "";
      }
      parts.addAll(IdentityDifference.between(first.identity(), d.identity()));
    }
    List<String> words = new ArrayList<>();
    for (IdentityDifference.Part p : parts) {
      words.add(p.words());
    }
    return String.join("; ", words);
  }

  /** Where to enable a disabled definition. */
  /** How to enable a disabled definition, in the terms of the client whose file holds it. */
  static String enableHint(ConfiguredDefinition d) {
    String file = Escaper.esc(d.file(), Escaper.LONG_LIMIT);
    return switch (ConfigFormat.of(d.format())) {
      case CODEX, ZED, GOOSE, OPENCODE, MCPHUB ->
          "set \"enabled\" to true at "
              + file
              + " "
              + Escaper.esc(d.pointer() + "/enabled", Escaper.LONG_LIMIT);
      case GEMINI ->
          "remove it from \"mcp\" \"excluded\" (or add it to \"mcp\" \"allowed\") in "
              + file
              + ", and set \"enabled\" to true for it in"
              + " ~/.gemini/mcp-server-enablement.json if it is listed there";
      default ->
          "set \"disabled\" to false (or remove it) at "
              + file
              + " "
              + Escaper.esc(d.pointer() + "/disabled", Escaper.LONG_LIMIT);
    };
  }

  private static String where(ConfiguredDefinition d) {
    return Escaper.esc(d.file(), Escaper.LONG_LIMIT)
        + " "
        + Escaper.esc(d.pointer(), Escaper.LONG_LIMIT);
  }

  private static String name(ConfiguredServer server) {
    return Escaper.esc(server.name(), Escaper.SHORT_LIMIT);
  }
}
