package dev.kcshare.host.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words a parser's complaint for an operator: where (line and column), what was expected, never the
 * parser's internals (class names, "[Source: ...]", token codes) and never the text it choked on,
 * which may be a fragment of an unquoted secret.
 */
final class SyntaxProblem {
  private static final Pattern UNEXPECTED_CHAR =
      Pattern.compile("Unexpected character \\('(.)' \\(code \\d+\\)\\)");
  private static final Pattern UNEXPECTED_CLOSE =
      Pattern.compile("Unexpected close marker '(.)': expected '(.)'");
  private static final Pattern START_MARKER =
      Pattern.compile("start marker at .*?line: (\\d+), column: (\\d+)");

  private SyntaxProblem() {}

  /**
   * The problem as stored for a file: {@code LINE:COLUMN: not valid SYNTAX: what}, or without the
   * location when it is unknown.
   */
  static String located(FileSyntax syntax, int line, int column, String what) {
    String body = "not valid " + syntax.label() + ": " + what;
    return line > 0 ? line + ":" + Math.max(column, 1) + ": " + body : body;
  }

  /** Jackson's JSON parser message in plain words. */
  static String json(String message) {
    String m = message == null ? "" : message;
    if (m.startsWith("Unexpected end-of-input")) {
      Matcher start = START_MARKER.matcher(m);
      String opened = start.find() ? " opened at line " + start.group(1) : "";
      String lower = m.toLowerCase(java.util.Locale.ROOT);
      if (lower.contains("close marker for object")) {
        return "the file ends inside an object" + opened + "; expected '}'";
      }
      if (lower.contains("close marker for array")) {
        return "the file ends inside an array" + opened + "; expected ']'";
      }
      if (lower.contains("string value") || lower.contains("field name")) {
        return "the file ends inside a string; expected its closing double quote";
      }
      return "the file ends too early";
    }
    if (m.contains("was expecting double-quote to start field name")) {
      return "expected a member name in double quotes" + found(m);
    }
    if (m.contains("was expecting comma to separate Object entries")) {
      return "expected ',' or '}' after a member" + found(m);
    }
    if (m.contains("was expecting comma to separate Array entries")) {
      return "expected ',' or ']' after an array element" + found(m);
    }
    if (m.contains("was expecting a colon to separate field name and value")) {
      return "expected ':' after a member name" + found(m);
    }
    Matcher close = UNEXPECTED_CLOSE.matcher(m);
    if (close.find()) {
      return "unexpected '" + close.group(1) + "'; expected '" + close.group(2) + "'";
    }
    if (m.startsWith("Unrecognized token")
        || m.contains("expected a valid value")
        || m.contains("expected a value")) {
      return "expected a value (a string in double quotes, a number, an object, an array, true,"
          + " false or null)";
    }
    if (m.startsWith("Illegal unquoted character")) {
      return "a control character (such as a line break or a tab) inside a string; it must be"
          + " written as an escape sequence";
    }
    if (m.startsWith("Unrecognized character escape")) {
      return "an unknown escape sequence (a backslash and a letter JSON does not know) in a string";
    }
    if (m.contains("Leading zeroes") || m.contains("Invalid numeric value")) {
      return "a malformed number";
    }
    if (m.contains("trailing content")) {
      return "more text after the end of the JSON document";
    }
    if (m.contains("nesting deeper")) {
      return m;
    }
    if (m.startsWith("empty input")) {
      return "the file is empty; expected a JSON object";
    }
    if (m.equals("not valid UTF-8")) {
      return "not valid UTF-8 text";
    }
    if (m.contains("unterminated /* comment")) {
      return "a /* comment that is never closed";
    }
    return "the text cannot be read as JSON here";
  }

  /** Jackson's TOML parser message in plain words. */
  static String toml(String message) {
    String m = message == null ? "" : message;
    if (m.contains("Table redefined") || m.contains("Duplicate key")) {
      return "a key or table is defined twice";
    }
    if (m.contains("Newline not permitted")) {
      return "a line break where the line must go on (a string or value left open)";
    }
    if (m.contains("Trailing comma not permitted")) {
      return "a trailing comma in an inline table";
    }
    if (m.contains("Number") || m.contains("Zero-prefixed") || m.contains("number")) {
      return "a malformed number";
    }
    if (m.contains("Illegal control character")) {
      return "a control character (such as a tab or a line break) inside a string";
    }
    if (m.contains("Unknown escape sequence")) {
      return "an unknown escape sequence (a backslash and a letter TOML does not know)";
    }
    if (m.contains("Comment not permitted")) {
      return "a comment where none may stand";
    }
    if (m.contains("More data after value")) {
      return "more text after a value on the same line";
    }
    if (m.contains("EOF") || m.contains("end of input") || m.contains("end-of-input")) {
      return "the file ends too early";
    }
    return "unexpected text here; expected a key = value line, a [table] header or a value (a"
        + " string in quotes, a number, true, false, an array or an inline table)";
  }

  /** SnakeYAML's problem text in plain words. */
  static String yaml(String problem) {
    String m = problem == null ? "" : problem;
    if (m.contains("mapping values are not allowed here")) {
      return "a ':' where no key can start (check the indentation, or quote the value)";
    }
    if (m.contains("could not find expected ':'")) {
      return "expected ':' after a key";
    }
    if (m.contains("cannot start any token") && m.contains("\\t")) {
      return "a tab character: YAML indents with spaces";
    }
    if (m.contains("found duplicate key")) {
      return "a key appears twice in one mapping";
    }
    if (m.contains("<block end>")) {
      return "the indentation does not line up with the lines above";
    }
    if (m.contains("found unexpected end of stream")) {
      return "the file ends inside a quoted string; expected its closing quote";
    }
    if (m.contains("found undefined alias")) {
      return "an alias (*name) with no matching anchor";
    }
    if (m.contains("expected a single document")) {
      return "more than one document (---); expected one";
    }
    return redacted(m);
  }

  /** ", found 'c'" for a punctuation character, which cannot be a secret; nothing otherwise. */
  private static String found(String message) {
    Matcher c = UNEXPECTED_CHAR.matcher(message);
    if (c.find() && "{}[],:'".indexOf(c.group(1).charAt(0)) >= 0) {
      return ", found '" + c.group(1) + "'";
    }
    if (c.find(0) && c.group(1).equals("\"")) {
      return ", found a double quote";
    }
    return "";
  }

  /**
   * A parser's own words with anything quoted (a token it choked on) replaced by an ellipsis, and
   * with its location suffixes removed (the location is given separately).
   */
  static String redacted(String message) {
    String m = message == null ? "" : message;
    m = m.replaceAll("(?s)\\s*at \\[Source:.*$", "");
    m = m.replaceAll("'[^'\\n]{2,}'", "'…'");
    m = m.replaceAll("\"[^\"\\n]{2,}\"", "'…'");
    return m.strip();
  }
}
