package dev.kcshare.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The repository cites only documents it contains. Every {@code docs/NAME.md} and {@code
 * docs/NAME.md#anchor} named anywhere in the tree (code, Javadoc, tests, scripts, build files) must
 * be a file under {@code docs/} with a heading of that anchor; every relative Markdown link between
 * the documents must resolve the same way; and no file names a design document that is not in the
 * repository or cites sections by number instead of by anchor.
 */
final class DocReferencesTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path SELF =
      Path.of("src", "test", "java", "dev", "kcshare", "docs", "DocReferencesTest.java")
          .toAbsolutePath()
          .normalize();

  /** Directories never searched: version control, build output, installed packages. */
  private static final Set<String> SKIPPED_DIRS =
      Set.of(".git", "target", "node_modules", ".it-servers");

  /** A citation of a repository document: {@code docs/NAME.md} with an optional anchor. */
  private static final Pattern CITATION =
      Pattern.compile("(?<![\\w./-])docs/([\\w.-]+\\.md)(?:#([\\w-]+))?");

  /**
   * A relative Markdown link target inside a document: {@code (NAME.md#anchor)} or {@code (#a)}.
   */
  private static final Pattern MD_LINK =
      Pattern.compile("\\]\\(((?:[\\w.-]+/)*[\\w.-]*\\.md)?(?:#([\\w-]+))?\\)");

  /**
   * Names of design documents kept outside the repository, and section-number citations: a reader
   * of the code cannot follow either. Spelled in pieces so this file does not match itself.
   */
  private static final Pattern FOREIGN =
      Pattern.compile(
          "(?<![\\w/.-])(?:engine|prober|records|client-configs)\\.md\\b"
              + "|000_"
              + "903"
              + "|\\b(?:engine|records|prober) spec\\b"
              + "|\u00a7");

  private static final Map<Path, String> TEXTS = new HashMap<>();

  @BeforeAll
  static void readTree() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      for (Path file :
          files
              .filter(p -> !skipped(p))
              .filter(Files::isRegularFile)
              .filter(p -> !p.normalize().equals(SELF))
              .toList()) {
        String text = textOf(file);
        if (text != null) {
          TEXTS.put(file, text);
        }
      }
    }
    assertThat(TEXTS.keySet())
        .as("the tree was found")
        .contains(ROOT.resolve("docs").resolve("design.md"), ROOT.resolve("pom.xml"));
  }

  private static boolean skipped(Path p) {
    for (Path part : ROOT.relativize(p)) {
      if (SKIPPED_DIRS.contains(part.toString())) {
        return true;
      }
    }
    return false;
  }

  /** The file as UTF-8 text, or null for a binary or oversized file. */
  private static String textOf(Path file) throws IOException {
    if (Files.size(file) > 4 * 1024 * 1024) {
      return null;
    }
    byte[] bytes = Files.readAllBytes(file);
    for (byte b : bytes) {
      if (b == 0) {
        return null;
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  @Test
  void everyCitedDocumentAndAnchorExists() {
    List<String> broken = new ArrayList<>();
    int citations = 0;
    for (Map.Entry<Path, String> e : TEXTS.entrySet()) {
      Matcher m = CITATION.matcher(e.getValue());
      while (m.find()) {
        citations++;
        String problem = resolve(ROOT.resolve("docs").resolve(m.group(1)), m.group(2));
        if (problem != null) {
          broken.add(
              where(e.getKey(), e.getValue(), m.start()) + ": " + m.group() + ": " + problem);
        }
      }
    }
    assertThat(citations).as("citations found").isGreaterThan(100);
    assertThat(broken).as("citations of documents or anchors that do not exist").isEmpty();
  }

  @Test
  void everyRelativeLinkBetweenDocumentsResolves() {
    List<String> broken = new ArrayList<>();
    for (Map.Entry<Path, String> e : TEXTS.entrySet()) {
      if (!e.getKey().toString().endsWith(".md")) {
        continue;
      }
      String text = withoutCodeBlocks(e.getValue());
      Matcher m = MD_LINK.matcher(text);
      while (m.find()) {
        if (m.group(1) == null && m.group(2) == null) {
          continue;
        }
        Path target = m.group(1) == null ? e.getKey() : e.getKey().resolveSibling(m.group(1));
        String problem = resolve(target.normalize(), m.group(2));
        if (problem != null) {
          broken.add(where(e.getKey(), text, m.start()) + ": " + m.group() + ": " + problem);
        }
      }
    }
    assertThat(broken).as("Markdown links that do not resolve").isEmpty();
  }

  @Test
  void noFileCitesADocumentOutsideTheRepository() {
    List<String> found = new ArrayList<>();
    for (Map.Entry<Path, String> e : TEXTS.entrySet()) {
      Matcher m = FOREIGN.matcher(e.getValue());
      while (m.find()) {
        found.add(where(e.getKey(), e.getValue(), m.start()) + ": " + m.group());
      }
    }
    assertThat(found)
        .as("references to documents that are not in the repository; cite docs/NAME.md#anchor")
        .isEmpty();
  }

  @Test
  void anchorsFollowTheHeadingsAsGitHubRendersThem() {
    assertThat(anchors("# The record files\n## kcshare's own file — `kcshare-attempts.json`\n"))
        .contains("the-record-files", "kcshares-own-file--kcshare-attemptsjson");
    assertThat(anchors("## Notes\n```\n## not a heading\n```\n## Notes\n"))
        .containsExactlyInAnyOrder("notes", "notes-1");
    assertThat(FOREIGN.matcher("see records" + ".md §3").find()).isTrue();
    assertThat(FOREIGN.matcher("see docs/design.md#read-tolerance").find()).isFalse();
  }

  /** Null when {@code file} exists (and has {@code anchor}, when given), else what is wrong. */
  private static String resolve(Path file, String anchor) {
    String text = TEXTS.get(file);
    if (text == null) {
      return Files.exists(file) ? null : "no such document";
    }
    if (anchor == null || anchors(text).contains(anchor)) {
      return null;
    }
    return "no heading with anchor #" + anchor;
  }

  /** The anchors GitHub gives the headings of a Markdown text. */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new TreeSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : withoutCodeBlocks(markdown).split("\n", -1)) {
      Matcher h = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$").matcher(line);
      if (!h.matches()) {
        continue;
      }
      String slug =
          h.group(1)
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
              .trim()
              .replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum);
      anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
    }
    return anchors;
  }

  /** The text with fenced code blocks blanked (line count kept). */
  private static String withoutCodeBlocks(String markdown) {
    StringBuilder out = new StringBuilder();
    boolean inFence = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.stripLeading().startsWith("```")) {
        inFence = !inFence;
        out.append('\n');
        continue;
      }
      out.append(inFence ? "" : line).append('\n');
    }
    return out.toString();
  }

  private static String where(Path file, String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return ROOT.relativize(file) + ":" + line;
  }
}
