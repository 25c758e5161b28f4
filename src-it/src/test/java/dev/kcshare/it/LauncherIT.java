package dev.kcshare.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Black-box checks of the packaged launcher and jar. */
final class LauncherIT {
  @Test
  void assessesTheShippedExample() throws Exception {
    Kcshare.Result r = Kcshare.run("assess", "--evidence", "examples/evidence.json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout().strip()).startsWith("[").endsWith("]");
    assertThat(r.stdout())
        .containsSubsequence(
            "\"name\": \"filesystem\"",
            "\"strength\": \"measured\"",
            "\"name\": \"notes-mcp\"",
            "\"strength\": \"declared\"",
            "\"recommendShare\": true",
            "\"name\": \"github\"",
            "\"strength\": \"no_objection\"",
            "\"handshake_not_reproducible\"",
            "\"name\": \"browser\"",
            "\"strength\": \"refuted\"",
            "\"name\": \"remote-search\"",
            "\"strength\": \"disqualified\"",
            "\"name\": \"new-server\"",
            "\"strength\": \"unknown\"");
  }

  @Test
  void badInputExitsTwoWithNothingOnStdout() throws Exception {
    Kcshare.Result r =
        Kcshare.run(
            Kcshare.repo(), Map.of(), "{\"probeOk\": \"yes\"}", "assess", "--evidence", "-");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).contains("<stdin>").contains("/probeOk");
  }

  @Test
  void comparesTheShippedCaptures() throws Exception {
    Kcshare.Result r =
        Kcshare.run("preflight", "compare", "examples/captures/a.json", "examples/captures/b.json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("\"detail\": \"tools_shape_differs\"");
  }

  @Test
  void versionAndHelp() throws Exception {
    assertThat(Kcshare.run("--version").stdout()).startsWith("kcshare ");
    Kcshare.Result help = Kcshare.run("--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.stdout()).contains("Exit codes:");
  }

  @Test
  void appCdsArchiveNeverChangesStdout(@TempDir Path cache) throws Exception {
    Map<String, String> env = Map.of("KCSHARE_CDS", "1", "XDG_CACHE_HOME", cache.toString());
    String[] args = {"assess", "--evidence", "examples/evidence.json"};
    Kcshare.Result plain = Kcshare.run(Kcshare.repo(), Map.of(), "", args);
    Kcshare.Result creating = Kcshare.run(Kcshare.repo(), env, "", args);
    try (var files = Files.list(cache.resolve("kcshare"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".jsa"))).hasSize(1);
    }
    Kcshare.Result using = Kcshare.run(Kcshare.repo(), env, "", args);
    assertThat(creating.exitCode()).isZero();
    assertThat(using.exitCode()).isZero();
    assertThat(creating.stdout()).isEqualTo(plain.stdout());
    assertThat(using.stdout()).isEqualTo(plain.stdout());
  }
}
