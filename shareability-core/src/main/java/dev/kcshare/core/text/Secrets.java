package dev.kcshare.core.text;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The one rule that decides what of a server definition is secret, and the masker that replaces it
 * with {@value #MASK} wherever kcshare shows or stores text (docs/config.md#what-kcshare-masks). A
 * false positive is preferred to a leak.
 *
 * <p>What is secret, for one definition:
 *
 * <ul>
 *   <li>every declared env value of {@value #MIN_TEXT_LENGTH} characters or more (as the server
 *       receives it), wherever it appears in text;
 *   <li>the value after a secret-looking option, {@code --opt value} and {@code --opt=value}: the
 *       option's name without its leading dashes is at least two characters long and {@link
 *       #isSecretName secret-looking}; in the two-argument form the next argument is the value
 *       unless it starts with {@code --} (another long option);
 *   <li>the value of an argument {@code NAME=value} whose NAME (letters, digits, {@code _ . -}) is
 *       secret-looking or starts with one of the secret prefixes ({@link SecretPrefixes}, compared
 *       ignoring case);
 *   <li>in every URL (in an argument, the definition's URL or any text): the userinfo before
 *       {@code @} (user and password alike), and the value of every query or fragment parameter
 *       whose name is secret-looking.
 * </ul>
 *
 * <p>Values found by the last three rules that are {@value #MIN_TEXT_LENGTH} characters or more are
 * also masked wherever they appear in text, like env values. In any text, {@code NAME=value} and
 * {@code --NAME=value} with a secret-looking NAME are masked too (the value runs to white space, a
 * quote, {@code &}, {@code ;} or {@code ,}). Overlapping values are masked as one run.
 *
 * <p>Pure: no I/O. Masking is for display and storage only; identity hashes are computed from the
 * raw values.
 */
public final class Secrets {
  /** What a masked value prints as. */
  public static final String MASK = "***";

  /** Declared values shorter than this are not searched for in free text (too many false hits). */
  public static final int MIN_TEXT_LENGTH = 4;

  /**
   * A name is secret-looking when, lower-cased, it contains one of these (so {@code --keyboard} and
   * {@code --author} are masked too: a false positive is preferred to a leak), or is exactly {@code
   * sig}.
   */
  public static final List<String> SECRET_WORDS =
      List.of(
          "key",
          "token",
          "secret",
          "password",
          "passwd",
          "auth",
          "credential",
          "cookie",
          "signature");

  /** A masker that masks only what the patterns find (no declared values). */
  public static final Secrets NONE = new Secrets(List.of());

  /**
   * Longest first. A class, not a lambda: a masker is made before a pre-flight's first spawn, and a
   * lambda's first linkage there costs milliseconds.
   */
  private static final Comparator<String> LONGEST_FIRST = new LongestFirst();

  private static final class LongestFirst implements Comparator<String> {
    @Override
    public int compare(String a, String b) {
      return Integer.compare(b.length(), a.length());
    }
  }

  /** Longest first, each at least {@link #MIN_TEXT_LENGTH} characters, no duplicates. */
  private final List<String> values;

  private Secrets(List<String> values) {
    this.values = values;
  }

  /**
   * The masker of one definition.
   *
   * @param env the declared env as the server receives it (after variable resolution and envFile)
   * @param args the arguments
   * @param url the definition's URL, or null
   */
  public static Secrets of(Map<String, String> env, List<String> args, @Nullable String url) {
    Set<String> found = new LinkedHashSet<>(env.values());
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String name = optionName(arg);
      int eq = arg.indexOf('=');
      if (name != null && eq < 0 && isSecretOption(name) && i + 1 < args.size()) {
        String next = args.get(i + 1);
        if (!next.startsWith("--")) {
          found.add(next);
        }
      } else if (eq >= 0 && secretAssignment(arg, eq)) {
        found.add(arg.substring(eq + 1));
      }
      collectUrlSecrets(arg, found);
    }
    if (url != null) {
      collectUrlSecrets(url, found);
    }
    List<String> kept = new ArrayList<>();
    for (String v : found) {
      if (v.length() >= MIN_TEXT_LENGTH && !v.equals(MASK)) {
        kept.add(v);
      }
    }
    kept.sort(LONGEST_FIRST);
    return new Secrets(List.copyOf(kept));
  }

  /**
   * This masker plus one more value masked like a declared env value (the token of a pass, which a
   * server receives in its environment though the definition does not declare it). A value shorter
   * than {@link #MIN_TEXT_LENGTH}, or one already known, changes nothing.
   */
  public Secrets with(String value) {
    if (value.length() < MIN_TEXT_LENGTH || value.equals(MASK) || values.contains(value)) {
      return this;
    }
    List<String> kept = new ArrayList<>(values);
    kept.add(value);
    kept.sort(LONGEST_FIRST);
    return new Secrets(List.copyOf(kept));
  }

  /**
   * Whether a name (an option without its dashes, a {@code NAME=value} name, a URL parameter) looks
   * secret: lower-cased it contains one of {@link #SECRET_WORDS}, or it is {@code sig}.
   */
  public static boolean isSecretName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("sig")) {
      return true;
    }
    for (String word : SECRET_WORDS) {
      if (lower.contains(word)) {
        return true;
      }
    }
    return false;
  }

  /** {@code text} with every secret masked: the declared values, then what the patterns find. */
  public String mask(String text) {
    return maskPatterns(maskValues(text));
  }

  /**
   * The arguments as they may be shown: the value after (or of) a secret-looking option, the value
   * of a secret {@code NAME=value}, URL credentials, and every known value inside any argument,
   * masked. Same length as {@code args}.
   */
  public List<String> maskArgs(List<String> args) {
    List<String> out = new ArrayList<>(args.size());
    boolean maskNext = false;
    for (String arg : args) {
      if (maskNext && !arg.startsWith("--")) {
        out.add(MASK);
        maskNext = false;
        continue;
      }
      maskNext = false;
      String name = optionName(arg);
      int eq = arg.indexOf('=');
      if (name != null && isSecretOption(name)) {
        if (eq < 0) {
          maskNext = true;
          out.add(mask(arg));
        } else {
          out.add(arg.substring(0, eq + 1) + MASK);
        }
      } else if (eq >= 0 && secretAssignment(arg, eq)) {
        out.add(arg.substring(0, eq + 1) + MASK);
      } else {
        out.add(mask(arg));
      }
    }
    return List.copyOf(out);
  }

  /** A URL (or null) as it may be shown: {@link #mask} of it. */
  public @Nullable String maskUrl(@Nullable String url) {
    return url == null ? null : mask(url);
  }

  /** The option's name without its leading dashes (before any {@code =}), or null if no option. */
  private static @Nullable String optionName(String arg) {
    int i = 0;
    while (i < arg.length() && arg.charAt(i) == '-') {
      i++;
    }
    if (i == 0 || i == arg.length()) {
      return null;
    }
    int eq = arg.indexOf('=', i);
    return eq < 0 ? arg.substring(i) : arg.substring(i, eq);
  }

  /** Single-letter options are never masked (too many false positives). */
  private static boolean isSecretOption(String name) {
    return name.length() >= 2 && isSecretName(name);
  }

  /** {@code arg} is {@code NAME=value} (or {@code --NAME=value}) with a secret NAME. */
  private static boolean secretAssignment(String arg, int eq) {
    String name = optionName(arg);
    if (name != null) {
      return isSecretOption(name);
    }
    String left = arg.substring(0, eq);
    return isArgumentName(left) && isSecretArgumentName(left);
  }

  /**
   * {@code [A-Za-z0-9_.-]+}, checked without a pattern (a masker is made before a pre-flight's
   * first spawn).
   */
  private static boolean isArgumentName(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '.'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** The {@code NAME=value} rule: secret-looking, or a secret prefix ignoring case. */
  private static boolean isSecretArgumentName(String name) {
    return isSecretName(name)
        || SecretPrefixes.matchesIgnoringCase(name)
        || SecretPrefixes.matchesCredentialScrub(name.toUpperCase(Locale.ROOT));
  }

  private String maskValues(String text) {
    if (values.isEmpty() || text.isEmpty()) {
      return text;
    }
    boolean[] covered = null;
    for (String v : values) {
      int at = text.indexOf(v);
      while (at >= 0) {
        if (covered == null) {
          covered = new boolean[text.length()];
        }
        for (int i = at; i < at + v.length(); i++) {
          covered[i] = true;
        }
        at = text.indexOf(v, at + 1);
      }
    }
    if (covered == null) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      if (covered[i]) {
        out.append(MASK);
        while (i < text.length() && covered[i]) {
          i++;
        }
      } else {
        out.append(text.charAt(i++));
      }
    }
    return out.toString();
  }

  /**
   * The patterns, compiled when text is first searched, not when the class loads: a masker is made
   * before a pre-flight's first spawn, and the patterns are not needed until something is shown.
   */
  private static final class Patterns {
    private Patterns() {}

    static final Pattern URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>`]*");

    /** {@code NAME=value} or {@code --NAME=value} in free text. */
    static final Pattern ASSIGNMENT =
        Pattern.compile("(?<![A-Za-z0-9_.-])(-*)([A-Za-z0-9_.-]+)=([^\\s\"'&;,]+)");

    /**
     * Well-known token shapes, masked wherever they appear, taken from the rules of the gitleaks
     * secret scanner (config/gitleaks.toml; docs/security.md#what-kcshare-masks cites the rule
     * ids): AWS access key ids, GitHub personal, OAuth, app, refresh and fine-grained tokens, Slack
     * bot, user and app tokens, GitLab personal tokens, OpenAI and Anthropic keys, JWTs and PEM
     * private key blocks. No nested quantifiers, so no input makes a match slow.
     */
    static final Pattern TOKEN_SHAPES =
        Pattern.compile(
            String.join(
                "|",
                "\\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\\b",
                "\\b(?:ghp|gho|ghu|ghs|ghr)_[0-9a-zA-Z]{36}",
                "\\bgithub_pat_\\w{82}",
                "\\bxox[bpeoasr]-[0-9A-Za-z-]{10,}",
                "(?i)\\bxapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+(?-i)",
                "\\bglpat-[\\w-]{20}",
                "\\bsk-ant-[A-Za-z0-9_-]{20,}",
                "\\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}",
                "\\bsk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}",
                "\\bey[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9/\\\\_-]{17,}\\.(?:[a-zA-Z0-9/\\\\_-]{10,}={0,2})?",
                "-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\\s\\S]{0,20000}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----"));

    /**
     * A header given as text ({@code Authorization: Bearer X}, {@code X-Api-Key: X}): every {@code
     * Authorization} value, and the value of a header whose name is secret-looking. The scheme word
     * of an authorization ({@code Bearer}, {@code Basic}, ...) stays, and is never taken for the
     * value (the group is atomic).
     */
    static final Pattern HEADER =
        Pattern.compile(
            "(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_-]{0,63}):[ \\t]*"
                + "(?>((?:Bearer|Basic|Token|Digest|Bot|ApiKey)[ \\t]+)?)([^\\s\"'<>`,;]{4,})");
  }

  private static String maskTokenShapes(String text) {
    String out = Patterns.TOKEN_SHAPES.matcher(text).replaceAll(MASK);
    if (out.indexOf(':') < 0) {
      return out;
    }
    Matcher m = Patterns.HEADER.matcher(out);
    StringBuilder b = new StringBuilder(out.length());
    while (m.find()) {
      String name = m.group(1);
      boolean secret =
          name.equalsIgnoreCase("authorization")
              || name.equalsIgnoreCase("proxy-authorization")
              || isSecretName(name);
      if (secret && !m.group(3).equals(MASK) && !m.group(3).startsWith("//")) {
        String scheme = m.group(2) == null ? "" : m.group(2);
        m.appendReplacement(
            b,
            Matcher.quoteReplacement(
                out.substring(m.start(), m.start(2) < 0 ? m.start(3) : m.start(2))
                    + scheme
                    + MASK));
      } else {
        m.appendReplacement(b, Matcher.quoteReplacement(m.group()));
      }
    }
    m.appendTail(b);
    return b.toString();
  }

  private static String maskPatterns(String text) {
    text = maskTokenShapes(text);
    if (text.indexOf('=') < 0 && text.indexOf("://") < 0) {
      return text;
    }
    Matcher url = Patterns.URL.matcher(text);
    StringBuilder out = new StringBuilder(text.length());
    int last = 0;
    while (url.find()) {
      out.append(maskAssignments(text.substring(last, url.start())));
      out.append(maskOneUrl(url.group()));
      last = url.end();
    }
    out.append(maskAssignments(text.substring(last)));
    return out.toString();
  }

  private static String maskAssignments(String text) {
    if (text.indexOf('=') < 0) {
      return text;
    }
    Matcher m = Patterns.ASSIGNMENT.matcher(text);
    StringBuilder out = new StringBuilder(text.length());
    int last = 0;
    while (m.find()) {
      String dashes = m.group(1);
      String name = m.group(2);
      boolean secret = dashes.isEmpty() ? isSecretArgumentName(name) : isSecretOption(name);
      if (secret && !m.group(3).equals(MASK)) {
        out.append(text, last, m.start(3)).append(MASK);
        last = m.end(3);
      }
    }
    out.append(text, last, text.length());
    return out.toString();
  }

  /** One URL with its userinfo and its secret query and fragment parameters masked. */
  private static String maskOneUrl(String url) {
    int authorityStart = url.indexOf("://") + 3;
    int authorityEnd = authorityEnd(url, authorityStart);
    StringBuilder out = new StringBuilder(url.length());
    int at = url.lastIndexOf('@', authorityEnd - 1);
    if (at >= authorityStart) {
      out.append(url, 0, authorityStart).append(MASK);
      out.append(url, at, authorityEnd);
    } else {
      out.append(url, 0, authorityEnd);
    }
    int last = authorityEnd;
    for (int[] p : parameters(url, authorityEnd)) {
      int eq = url.indexOf('=', p[0]);
      if (eq > p[0] && eq < p[1] && isSecretName(url.substring(p[0], eq))) {
        out.append(url, last, eq + 1).append(MASK);
        last = p[1];
      }
    }
    out.append(url, last, url.length());
    return out.toString();
  }

  /** Collects the userinfo and secret parameter values of every URL in {@code text}. */
  private static void collectUrlSecrets(String text, Set<String> found) {
    if (!text.contains("://")) {
      return; // no URL (the pattern needs one), and no pattern compiled for it
    }
    Matcher m = Patterns.URL.matcher(text);
    while (m.find()) {
      String url = m.group();
      int authorityStart = url.indexOf("://") + 3;
      int authorityEnd = authorityEnd(url, authorityStart);
      int at = url.lastIndexOf('@', authorityEnd - 1);
      if (at >= authorityStart) {
        String userinfo = url.substring(authorityStart, at);
        found.add(userinfo);
        int colon = userinfo.indexOf(':');
        if (colon >= 0) {
          found.add(userinfo.substring(0, colon));
          found.add(userinfo.substring(colon + 1));
        }
      }
      for (int[] p : parameters(url, authorityEnd)) {
        int eq = url.indexOf('=', p[0]);
        if (eq > p[0] && eq < p[1] && isSecretName(url.substring(p[0], eq))) {
          found.add(url.substring(eq + 1, p[1]));
        }
      }
    }
  }

  /**
   * Where the authority that starts at {@code from} ends: the first {@code /}, {@code ?}, {@code
   * #}.
   */
  private static int authorityEnd(String url, int from) {
    int end = from;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    return end;
  }

  /**
   * The {@code [start, end)} spans of the query and fragment parameters: the pieces after the first
   * {@code ?} or {@code #} that follows {@code from}, separated by {@code &}, {@code ;} or {@code
   * #}.
   */
  private static List<int[]> parameters(String url, int from) {
    List<int[]> spans = new ArrayList<>();
    int i = from;
    while (i < url.length() && url.charAt(i) != '?' && url.charAt(i) != '#') {
      i++;
    }
    while (i < url.length()) {
      int start = i + 1;
      int end = start;
      while (end < url.length() && "&;#".indexOf(url.charAt(end)) < 0) {
        end++;
      }
      spans.add(new int[] {start, end});
      i = end;
    }
    return spans;
  }
}
