package dev.kcshare.host.config;

import dev.kcshare.api.ServerDefinition;
import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.policy.internal.Transport;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads one server entry ({@code {command, args, env, cwd, disabled, url, type}}). Strict on types:
 * a value of the wrong type is refused with its JSON pointer rather than guessed at, because a
 * guessed argument would spawn something the operator did not configure. {@code null} reads as
 * absent for every member; members this reader does not use ({@code autoApprove}, {@code headers},
 * ...) are ignored.
 */
final class EntryParser {
  private static final Set<String> KNOWN_TYPES = Set.of("stdio", "local");

  private EntryParser() {}

  /**
   * One parsed entry and the references substitution could not resolve in it.
   *
   * @param envFile the {@code envFile} member after substitution, or null
   */
  record Parsed(
      ServerDefinition definition, List<Substitution.Found> unresolved, @Nullable String envFile) {}

  /** Reads a standard entry (the member names are kcshare's). */
  static Parsed parse(
      String name,
      String pointer,
      @Nullable Object value,
      Substitution substitution,
      List<String> warnings) {
    if (!(value instanceof Map<?, ?> entry)) {
      throw expected(pointer, "an object", value);
    }
    return parse(
        Entry.standard(name, pointer, entry),
        substitution,
        ConfigFormat.EnvValues.PYTHON,
        warnings);
  }

  /**
   * @param warnings receives non-fatal notes, pointer first, unescaped; never an env value
   * @throws JsonInputException with the pointer of the first member of the wrong type
   */
  static Parsed parse(
      Entry entry,
      Substitution substitution,
      ConfigFormat.EnvValues envValues,
      List<String> warnings) {
    String command = string(entry, "command", substitution);
    List<String> args = new ArrayList<>();
    Object rawArgs = entry.get("args");
    String argsPointer = entry.at("args");
    if (rawArgs instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        String at = JsonInputException.child(argsPointer, i + entry.argsOffset());
        if (!(list.get(i) instanceof String s)) {
          throw expected(at, "a string", list.get(i));
        }
        args.add(substitution.apply("args", s, at));
      }
    } else if (rawArgs != null) {
      throw expected(argsPointer, "an array of strings", rawArgs);
    }
    List<String> unset = new ArrayList<>();
    Map<String, String> env = env(entry, substitution, envValues, warnings, unset);
    String cwd = string(entry, "cwd", substitution);
    Object rawDisabled = entry.get("disabled");
    if (rawDisabled != null && !(rawDisabled instanceof Boolean)) {
      throw expected(entry.at("disabled"), "a boolean", rawDisabled);
    }
    String url = string(entry, "url", substitution);
    String type = string(entry, "type", Substitution.VERBATIM);
    String envFile = string(entry, "envFile", substitution);
    String pointer = entry.pointer();
    if (type != null && !Transport.NON_STDIO_TYPES.contains(type) && !KNOWN_TYPES.contains(type)) {
      warnings.add(
          entry.at("type")
              + ": unknown transport type '"
              + type
              + "'"
              + (command != null ? "; read as stdio because a command is given" : ""));
    }
    if (command == null
        && url == null
        && (type == null || !ServerDefinition.CLIENT_PART_TYPES.contains(type))) {
      warnings.add(pointer + ": neither command nor url: nothing to launch or connect to");
    }
    if (entry.name().isBlank()) {
      throw new JsonInputException(pointer, "a server needs a name that is not blank");
    }
    ServerDefinition.Builder definition =
        ServerDefinition.builder(entry.name())
            .args(args)
            .env(env)
            .disabled(Boolean.TRUE.equals(rawDisabled))
            .unsetEnv(unset);
    if (command != null) {
      if (command.isBlank()) {
        throw new JsonInputException(entry.at("command"), "expected a command, got a blank string");
      }
      definition.command(command);
    }
    if (cwd != null) {
      definition.cwd(cwd);
    }
    if (url != null) {
      definition.url(url);
    }
    if (type != null) {
      definition.type(type);
    }
    return new Parsed(definition.build(), substitution.drain(), envFile);
  }

  /**
   * The declared env. Strings are kept; other values are read as the client reads them ({@link
   * ConfigFormat.EnvValues}): the Kiro Crew gateway's Python conversion (an integer becomes its
   * decimal text, a boolean {@code True}/{@code False}) by default, JavaScript's {@code String()}
   * for VS Code and Gemini CLI, strings only for strongly typed clients.
   */
  private static Map<String, String> env(
      Entry entry,
      Substitution substitution,
      ConfigFormat.EnvValues policy,
      List<String> warnings,
      List<String> unset) {
    Map<String, String> env = new LinkedHashMap<>();
    Object rawEnv = entry.get("env");
    String envPointer = entry.at("env");
    if (rawEnv == null) {
      return env;
    }
    if (!(rawEnv instanceof Map<?, ?> map)) {
      throw expected(envPointer, "an object", rawEnv);
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      String at = JsonInputException.child(envPointer, key);
      Object v = e.getValue();
      if (v instanceof String s) {
        env.put(key, substitution.apply("env", s, at));
        continue;
      }
      switch (policy) {
        case PYTHON -> env.put(key, python(v, at, warnings));
        case VSCODE -> {
          if (v == null) {
            unset.add(key);
            warnings.add(at + ": null: VS Code starts the server without this variable");
          } else {
            env.put(key, javascript(v, at, warnings, "VS Code"));
          }
        }
        case JAVASCRIPT -> env.put(key, javascript(v, at, warnings, "Gemini CLI"));
        case STRINGS -> throw expected(at, "a string", v);
      }
    }
    return env;
  }

  private static String python(@Nullable Object v, String at, List<String> warnings) {
    if (v instanceof Boolean b) {
      warnings.add(at + ": boolean used as True/False, as the Kiro Crew gateway converts it");
      return b ? "True" : "False";
    }
    if (v instanceof Integer || v instanceof Long || v instanceof BigInteger) {
      warnings.add(at + ": integer used as its decimal text, as the Kiro Crew gateway does");
      return v.toString();
    }
    if (v instanceof Number) {
      throw new JsonInputException(
          at, "expected a string, an integer or a boolean, got a non-integer number");
    }
    throw expected(at, "a string", v);
  }

  private static String javascript(
      @Nullable Object v, String at, List<String> warnings, String client) {
    if (v instanceof Boolean b) {
      warnings.add(at + ": boolean used as " + b + ", as " + client + " converts it");
      return b.toString();
    }
    if (v instanceof Number n) {
      String text = jsNumber(n);
      warnings.add(at + ": number used as " + text + ", as " + client + " converts it");
      return text;
    }
    throw expected(at, "a string or a number", v);
  }

  /** JavaScript's {@code String(number)} for a parsed JSON number. */
  static String jsNumber(Number n) {
    double d = n.doubleValue();
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return "0";
    }
    BigDecimal exact = new BigDecimal(Double.toString(d)).stripTrailingZeros();
    double abs = Math.abs(d);
    if (abs >= 1e21 || abs < 1e-6) {
      // Exponent form: digits, then e+N / e-N.
      String digits = exact.unscaledValue().abs().toString();
      int exponent = digits.length() - 1 - exact.scale();
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return (d < 0 ? "-" : "") + mantissa + "e" + (exponent >= 0 ? "+" : "") + exponent;
    }
    return exact.toPlainString();
  }

  private static @Nullable String string(Entry entry, String member, Substitution substitution) {
    Object value = entry.get(member);
    String at = entry.at(member);
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return substitution.apply(member, s, at);
    }
    throw expected(at, "a string", value);
  }

  static JsonInputException expected(String pointer, String what, @Nullable Object got) {
    return new JsonInputException(pointer, "expected " + what + ", got " + describe(got));
  }

  static String describe(@Nullable Object value) {
    String type = JsonInputException.typeName(value);
    return switch (type) {
      case "null" -> "null";
      case "object", "array" -> "an " + type;
      default -> "a " + type;
    };
  }
}
