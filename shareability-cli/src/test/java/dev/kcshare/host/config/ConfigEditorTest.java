package dev.kcshare.host.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kcshare.host.BadInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ConfigEditorTest {
  @TempDir Path dir;

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static Map<String, Boolean> one(String name, boolean value) {
    Map<String, Boolean> m = new LinkedHashMap<>();
    m.put(name, value);
    return m;
  }

  @Test
  void writesAtomicallyKeepsTheModeAndBacksUpTheOldBytes() throws Exception {
    Path file = dir.resolve("config.json");
    String before = ConfigSamples.text("kirocrew-config.json");
    Files.writeString(file, before);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      assertThat(editor.exists()).isTrue();
      assertThat(editor.settings().stubOverrides()).containsEntry("github", true);
      assertThat(editor.writeStubOverrides(one("github", false))).isTrue();
      assertThat(editor.settings().stubOverrides()).containsExactlyEntriesOf(one("github", false));
    }
    Path backup = dir.resolve("config.json.bak");
    assertThat(Files.readString(backup)).isEqualTo(before);
    assertThat(mode(backup)).isEqualTo("rw-r-----");
    assertThat(mode(file)).isEqualTo("rw-r-----");
    String after = Files.readString(file);
    int from = before.indexOf("{", before.indexOf("\"stub_overrides\""));
    int to = before.indexOf("}", from) + 1;
    assertThat(after)
        .isEqualTo(
            before.substring(0, from) + "{\n      \"github\": false\n    }" + before.substring(to));
    assertThat(dir.resolve("config.json.lock")).exists();
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("config.json", "config.json.bak", "config.json.lock");
    }
  }

  @Test
  void anUnchangedTextWritesNothing() throws Exception {
    Path file = dir.resolve("config.json");
    String text =
        "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"a\": true\n    }\n  }\n}\n";
    Files.writeString(file, text);
    FileTime old = FileTime.fromMillis(1_000_000L);
    Files.setLastModifiedTime(file, old);
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      assertThat(editor.writeStubOverrides(one("a", true))).isFalse();
    }
    assertThat(Files.readString(file)).isEqualTo(text);
    assertThat(Files.getLastModifiedTime(file)).isEqualTo(old);
    assertThat(dir.resolve("config.json.bak")).doesNotExist();
  }

  @Test
  void aMissingFileIsCreatedPrivateWithoutABackup() throws Exception {
    Path file = dir.resolve("crew/config.json");
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      assertThat(editor.exists()).isFalse();
      assertThat(editor.settings().present()).isFalse();
      assertThat(editor.writeStubOverrides(one("a", true))).isTrue();
    }
    assertThat(Files.readString(file))
        .isEqualTo(
            "{\n  \"mcp_gateway\": {\n    \"stub_overrides\": {\n      \"a\": true\n    }\n  }\n}\n");
    assertThat(mode(file)).isEqualTo("rw-------");
    assertThat(dir.resolve("crew/config.json.bak")).doesNotExist();
  }

  @Test
  void withoutAWriteAMissingDirectoryIsNotCreated() throws Exception {
    Path file = dir.resolve("home/.kiro/crew/config.json");
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      assertThat(editor.exists()).isFalse();
      assertThat(editor.writeStubOverrides(Map.of())).isTrue(); // an empty map still needs a file
    }
    assertThat(file).exists();
    Path other = dir.resolve("elsewhere/config.json");
    try (ConfigEditor editor = ConfigEditor.open(other)) {
      assertThat(editor.settings().present()).isFalse();
    }
    assertThat(dir.resolve("elsewhere")).doesNotExist();
  }

  @Test
  void aSymbolicLinkIsFollowedAndStaysALink() throws Exception {
    Path real = Files.createDirectories(dir.resolve("dotfiles")).resolve("crew.json");
    Files.writeString(real, "{\"mcp_gateway\": {}}");
    Path link = Files.createSymbolicLink(dir.resolve("config.json"), real);
    try (ConfigEditor editor = ConfigEditor.open(link)) {
      assertThat(editor.file()).isEqualTo(real.toRealPath());
      editor.writeStubOverrides(one("a", true));
    }
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(real)).contains("\"a\": true");
    assertThat(dir.resolve("dotfiles/crew.json.bak")).hasContent("{\"mcp_gateway\": {}}");
  }

  @Test
  void unreadableContentIsBadInputAndReleasesTheLock() throws Exception {
    Path file = dir.resolve("config.json");
    for (String bad : List.of("{\"mcp_gateway\": ", "{\"mcp_gateway\": [1]}", "[]")) {
      Files.writeString(file, bad);
      assertThatThrownBy(() -> ConfigEditor.open(file))
          .as(bad)
          .isInstanceOf(BadInputException.class)
          .hasMessageStartingWith(file.toString());
    }
    Files.write(file, new byte[] {'{', (byte) 0xff, '}'});
    assertThatThrownBy(() -> ConfigEditor.open(file)).isInstanceOf(BadInputException.class);
    Files.writeString(file, "{}");
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      assertThat(editor.exists()).isTrue(); // the lock was released by every failed open
    }
  }

  @Test
  void aByteOrderMarkAndUnicodeElsewhereSurviveByteForByte() throws Exception {
    Path file = dir.resolve("config.json");
    String text =
        "\uFEFF{\n  \"名前\": \"值 ✓ \\ud83d\\ude00 😀\",\n  \"mcp_gateway\": {\"enabled\": true}\n}\n";
    byte[] before = text.getBytes(StandardCharsets.UTF_8);
    Files.write(file, before);
    try (ConfigEditor editor = ConfigEditor.open(file)) {
      assertThat(editor.settings().sharingOn()).isTrue();
      editor.writeStubOverrides(one("ünï", true));
    }
    String after = Files.readString(file);
    assertThat(after)
        .isEqualTo(
            "\uFEFF{\n  \"名前\": \"值 ✓ \\ud83d\\ude00 😀\",\n  \"mcp_gateway\": {\"enabled\": true,"
                + " \"stub_overrides\": {\"ünï\": true}}\n}\n");
    assertThat(Files.readAllBytes(dir.resolve("config.json.bak"))).isEqualTo(before);
  }
}
