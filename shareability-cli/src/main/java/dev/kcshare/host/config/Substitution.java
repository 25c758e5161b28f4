package dev.kcshare.host.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Resolves the variable references a configuring tool resolves at launch, so a definition reads as
 * the process the tool would start. Unresolvable references are collected, never guessed.
 */
final class Substitution {
  /** Which syntax a format uses. */
  enum Style {
    /** No substitution: values are used verbatim. */
    NONE,
    /**
     * Claude Code's {@code .mcp.json}: {@code ${VAR}} and {@code ${VAR:-default}}. An unset
     * variable without a default stays as written.
     */
    SHELL,
    /**
     * Cursor: {@code ${env:NAME}} (unset = empty string), {@code ${userHome}}, {@code
     * ${workspaceFolder}}, {@code ${workspaceFolderBasename}}, {@code ${pathSeparator}}, {@code
     * ${/}}.
     */
    EDITOR,
    /** VS Code: as {@link #EDITOR}, and {@code ${input:ID}} is recognised (and left as written). */
    EDITOR_WITH_INPUTS
  }

  /** What the variables resolve to. */
  record Values(Map<String, String> env, Path workspace, Path userHome, String pathSeparator) {}

  /** One unresolved reference: where it is, what it says, why. */
  record Found(String pointer, String reference, UnresolvedVariable.Reason reason) {}

  /** Uses every value verbatim. */
  static final Substitution VERBATIM =
      new Substitution(Style.NONE, new Values(Map.of(), Path.of(""), Path.of(""), "/"));

  private final Style style;
  private final Values values;
  private final List<Found> found = new ArrayList<>();

  Substitution(Style style, Values values) {
    this.style = style;
    this.values = values;
  }

  /** The value with its references resolved; unresolved ones are recorded under {@code pointer}. */
  String apply(String value, String pointer) {
    if (style == Style.NONE || !value.contains("${")) {
      return value;
    }
    StringBuilder out = new StringBuilder(value.length());
    int i = 0;
    while (i < value.length()) {
      int open = value.indexOf("${", i);
      int close = open < 0 ? -1 : value.indexOf('}', open + 2);
      if (open < 0 || close < 0) {
        out.append(value, i, value.length());
        break;
      }
      out.append(value, i, open);
      String reference = value.substring(open, close + 1);
      String body = value.substring(open + 2, close);
      out.append(
          style == Style.SHELL
              ? shell(reference, body, pointer)
              : editor(reference, body, pointer));
      i = close + 1;
    }
    return out.toString();
  }

  /** The references recorded so far, then forgets them. */
  List<Found> drain() {
    List<Found> out = List.copyOf(found);
    found.clear();
    return out;
  }

  private String shell(String reference, String body, String pointer) {
    if (body.isEmpty()) {
      return reference;
    }
    int dash = body.indexOf(":-");
    String name = dash < 0 ? body : body.substring(0, dash);
    String set = values.env().get(name);
    if (set != null) {
      return set;
    }
    if (dash >= 0) {
      return body.substring(dash + 2);
    }
    found.add(new Found(pointer, reference, UnresolvedVariable.Reason.UNSET));
    return reference;
  }

  private String editor(String reference, String body, String pointer) {
    if (body.startsWith("env:")) {
      String set = values.env().get(body.substring(4));
      if (set != null) {
        return set;
      }
      found.add(new Found(pointer, reference, UnresolvedVariable.Reason.UNSET));
      return "";
    }
    switch (body) {
      case "workspaceFolder":
        return values.workspace().toString();
      case "workspaceFolderBasename":
        Path name = values.workspace().getFileName();
        return name == null ? "" : name.toString();
      case "userHome":
        return values.userHome().toString();
      case "pathSeparator":
      case "/":
        return values.pathSeparator();
      default:
        break;
    }
    boolean input = style == Style.EDITOR_WITH_INPUTS && body.startsWith("input:");
    found.add(
        new Found(
            pointer,
            reference,
            input ? UnresolvedVariable.Reason.INPUT : UnresolvedVariable.Reason.UNSUPPORTED));
    return reference;
  }
}
