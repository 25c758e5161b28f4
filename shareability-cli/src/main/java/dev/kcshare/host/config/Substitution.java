package dev.kcshare.host.config;

import dev.kcshare.api.UnresolvedVariable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    EDITOR_WITH_INPUTS,
    /** Windsurf: {@code ${env:NAME}} (unset = empty string); {@code ${file:…}} is not read. */
    WINDSURF,
    /** Roo Code: {@code ${env:NAME}} (unset stays as written) and {@code ${workspaceFolder}}. */
    ROO,
    /** Gemini CLI: {@code $NAME}, {@code ${NAME}}, {@code ${NAME:-default}}; unset stays. */
    GEMINI,
    /**
     * Amazon Q Developer CLI: {@code ${env:NAME}} in env values (unset becomes {@code ${NAME}});
     * the command is shell-expanded ({@code ~}, {@code $NAME}, {@code ${NAME}}).
     */
    AMAZONQ,
    /** opencode: {@code {env:NAME}} (unset = empty string); {@code {file:…}} is not read. */
    OPENCODE,
    /** Continue YAML: {@code ${{ secrets.NAME }}} from its {@code .env} files. */
    CONTINUE,
    /** Continue JSON: {@code ${NAME}}, which Continue reads as {@code ${{ secrets.NAME }}}. */
    CONTINUE_JSON
  }

  /**
   * What the variables resolve to.
   *
   * @param secrets Continue's local secrets ({@code .env} files), first definition wins
   */
  record Values(
      Map<String, String> env,
      Path workspace,
      Path userHome,
      String pathSeparator,
      Map<String, String> secrets) {
    Values(Map<String, String> env, Path workspace, Path userHome, String pathSeparator) {
      this(env, workspace, userHome, pathSeparator, Map.of());
    }
  }

  /** One unresolved reference: where it is, what it says, why. */
  record Found(String pointer, String reference, UnresolvedVariable.Reason reason) {}

  /** Uses every value verbatim. */
  static final Substitution VERBATIM =
      new Substitution(Style.NONE, new Values(Map.of(), Path.of(""), Path.of(""), "/"));

  /** The other clients' syntaxes, compiled only when a file of theirs is read. */
  private static final class Patterns {
    static final Pattern GEMINI_REF = Pattern.compile("\\$(?:(\\w+)|\\{([^}]+?)(?::-([^}]*))?\\})");
    static final Pattern SHELL_EXPAND = Pattern.compile("\\$(?:(\\w+)|\\{([^}]*)\\})");
    static final Pattern AMAZONQ_ENV = Pattern.compile("\\$\\{env:([^}]+)\\}");
    static final Pattern ROO_ENV = Pattern.compile("\\$\\{env:(\\w+)\\}");
    static final Pattern OPENCODE_REF = Pattern.compile("\\{(env|file):([^}]+)\\}");
    static final Pattern CONTINUE_REF =
        Pattern.compile("\\$\\{\\{\\s*(secrets|inputs)\\.([^}\\s]+)\\s*\\}\\}");
    static final Pattern DOLLAR_BRACE = Pattern.compile("\\$\\{([^{}]*)\\}");

    private Patterns() {}
  }

  private final Style style;
  private final Values values;
  private final List<Found> found = new ArrayList<>();

  Substitution(Style style, Values values) {
    this.style = style;
    this.values = values;
  }

  /** The value with its references resolved; unresolved ones are recorded under {@code pointer}. */
  String apply(String value, String pointer) {
    return apply("", value, pointer);
  }

  /**
   * The value of one member ({@code command}, {@code args}, {@code env}, {@code cwd}, {@code url},
   * {@code envFile}) with the references resolved that the format resolves in that member.
   */
  String apply(String member, String value, String pointer) {
    return switch (style) {
      case NONE -> value;
      case SHELL -> value.contains("${") ? braces(value, pointer) : value;
      case EDITOR, EDITOR_WITH_INPUTS -> value.contains("${") ? braces(value, pointer) : value;
      case WINDSURF, ROO -> value.contains("${") ? braces(value, pointer) : value;
      case GEMINI -> value.indexOf('$') >= 0 ? gemini(value, pointer) : value;
      case AMAZONQ -> amazonQ(member, value, pointer);
      case OPENCODE -> value.indexOf('{') >= 0 ? opencode(value, pointer) : value;
      case CONTINUE -> value.contains("${{") ? continueSecrets(value, pointer) : value;
      case CONTINUE_JSON -> continueJson(value, pointer);
    };
  }

  /** The references recorded so far, then forgets them. */
  List<Found> drain() {
    List<Found> out = List.copyOf(found);
    found.clear();
    return out;
  }

  // ---------------------------------------------------------------- ${…} styles

  private String braces(String value, String pointer) {
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
          switch (style) {
            case SHELL -> shell(reference, body, pointer);
            case WINDSURF -> windsurf(reference, body, pointer);
            case ROO -> roo(reference, body, pointer);
            default -> editor(reference, body, pointer);
          });
      i = close + 1;
    }
    return out.toString();
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

  private String windsurf(String reference, String body, String pointer) {
    if (body.startsWith("env:")) {
      String set = values.env().get(body.substring(4));
      if (set != null) {
        return set;
      }
      found.add(new Found(pointer, reference, UnresolvedVariable.Reason.UNSET));
      return "";
    }
    found.add(new Found(pointer, reference, UnresolvedVariable.Reason.UNSUPPORTED));
    return reference;
  }

  private String roo(String reference, String body, String pointer) {
    if (body.equals("workspaceFolder")) {
      return values.workspace().toString().replace('\\', '/');
    }
    Matcher env = Patterns.ROO_ENV.matcher(reference);
    if (env.matches()) {
      String set = values.env().get(env.group(1));
      if (set != null) {
        return set.replace('\\', '/');
      }
      found.add(new Found(pointer, reference, UnresolvedVariable.Reason.UNSET));
      return reference;
    }
    found.add(new Found(pointer, reference, UnresolvedVariable.Reason.UNSUPPORTED));
    return reference;
  }

  // ---------------------------------------------------------------- other syntaxes

  private String gemini(String value, String pointer) {
    Matcher m = Patterns.GEMINI_REF.matcher(value);
    StringBuilder out = new StringBuilder(value.length());
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2);
      String set = values.env().get(name);
      String replacement;
      if (set != null) {
        replacement = set;
      } else if (m.group(3) != null) {
        replacement = m.group(3);
      } else {
        found.add(new Found(pointer, m.group(), UnresolvedVariable.Reason.UNSET));
        replacement = m.group();
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private String amazonQ(String member, String value, String pointer) {
    if (member.equals("env")) {
      if (!value.contains("${env:")) {
        return value;
      }
      Matcher m = Patterns.AMAZONQ_ENV.matcher(value);
      StringBuilder out = new StringBuilder(value.length());
      while (m.find()) {
        String set = values.env().get(m.group(1));
        String replacement;
        if (set != null) {
          replacement = set;
        } else {
          // Amazon Q writes an unset ${env:NAME} as ${NAME}.
          found.add(new Found(pointer, m.group(), UnresolvedVariable.Reason.UNSET));
          replacement = "${" + m.group(1) + "}";
        }
        m.appendReplacement(out, Matcher.quoteReplacement(replacement));
      }
      m.appendTail(out);
      return out.toString();
    }
    if (member.equals("command")) {
      String v = value;
      if (v.equals("~") || v.startsWith("~/")) {
        v = values.userHome() + v.substring(1);
      }
      if (v.indexOf('$') < 0) {
        return v;
      }
      Matcher m = Patterns.SHELL_EXPAND.matcher(v);
      StringBuilder out = new StringBuilder(v.length());
      while (m.find()) {
        String name = m.group(1) != null ? m.group(1) : m.group(2);
        String set = values.env().get(name);
        if (set == null) {
          found.add(new Found(pointer, m.group(), UnresolvedVariable.Reason.UNSET));
          set = m.group();
        }
        m.appendReplacement(out, Matcher.quoteReplacement(set));
      }
      m.appendTail(out);
      return out.toString();
    }
    return value;
  }

  private String opencode(String value, String pointer) {
    Matcher m = Patterns.OPENCODE_REF.matcher(value);
    StringBuilder out = new StringBuilder(value.length());
    while (m.find()) {
      String replacement;
      if (m.group(1).equals("env")) {
        String set = values.env().get(m.group(2));
        if (set == null) {
          found.add(new Found(pointer, m.group(), UnresolvedVariable.Reason.UNSET));
          set = "";
        }
        replacement = set;
      } else {
        found.add(new Found(pointer, m.group(), UnresolvedVariable.Reason.UNSUPPORTED));
        replacement = m.group();
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private String continueSecrets(String value, String pointer) {
    Matcher m = Patterns.CONTINUE_REF.matcher(value);
    StringBuilder out = new StringBuilder(value.length());
    while (m.find()) {
      m.appendReplacement(
          out, Matcher.quoteReplacement(secret(m.group(1), m.group(2), m.group(), pointer)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private String continueJson(String value, String pointer) {
    String v = value.contains("${{") ? continueSecrets(value, pointer) : value;
    if (!v.contains("${")) {
      return v;
    }
    Matcher m = Patterns.DOLLAR_BRACE.matcher(v);
    StringBuilder out = new StringBuilder(v.length());
    while (m.find()) {
      m.appendReplacement(
          out, Matcher.quoteReplacement(secret("secrets", m.group(1), m.group(), pointer)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private String secret(String kind, String name, String reference, String pointer) {
    if (kind.equals("secrets")) {
      String set = values.secrets().get(name);
      if (set != null) {
        return set;
      }
      found.add(new Found(pointer, reference, UnresolvedVariable.Reason.SECRET));
      return reference;
    }
    found.add(new Found(pointer, reference, UnresolvedVariable.Reason.UNSUPPORTED));
    return reference;
  }
}
