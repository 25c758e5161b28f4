package dev.kcshare.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import picocli.CommandLine;

/**
 * Writes the generated files of the distribution (the tarball and the Debian package), at build
 * time ({@code package} phase, {@code exec:java} in the CLI pom):
 *
 * <ul>
 *   <li>{@code man/man1/*.1}: the man pages ({@link ManPages}), and {@code man/gz/*.1.gz};
 *   <li>{@code completion/kcshare} and {@code completion/_kcshare}: the bash and zsh scripts, as
 *       {@code kcshare completion bash|zsh} prints them;
 *   <li>{@code deb/changelog.Debian.gz}.
 * </ul>
 *
 * Every file is the same for the same sources and version (the date is the build's fixed output
 * timestamp; gzip headers carry no name and no time), so the packages are reproducible.
 */
public final class DistributionFiles {
  private DistributionFiles() {}

  /**
   * @param args the output directory, the kcshare version, the Debian package version, the build's
   *     output timestamp (ISO 8601) and the package maintainer ({@code Name <address>})
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 5) {
      throw new IllegalArgumentException(
          "usage: DistributionFiles OUTPUT VERSION DEBIAN_VERSION TIMESTAMP MAINTAINER");
    }
    Path out = Path.of(args[0]);
    String version = args[1];
    String debianVersion = args[2];
    OffsetDateTime time = OffsetDateTime.parse(args[3]).withOffsetSameInstant(ZoneOffset.UTC);
    String maintainer = args[4];

    Path man = out.resolve("man/man1");
    Path gz = Files.createDirectories(out.resolve("man/gz"));
    for (Path page : ManPages.generate(man, version, time.toLocalDate().toString())) {
      writeGzip(gz.resolve(page.getFileName() + ".gz"), Files.readAllBytes(page));
    }

    Path completion = Files.createDirectories(out.resolve("completion"));
    CommandLine root = Main.commandLine(quietContext());
    Files.writeString(
        completion.resolve("kcshare"), CompletionScripts.bash(root), StandardCharsets.UTF_8);
    Files.writeString(
        completion.resolve("_kcshare"), CompletionScripts.zsh(root), StandardCharsets.UTF_8);

    Path deb = Files.createDirectories(out.resolve("deb"));
    writeGzip(
        deb.resolve("changelog.Debian.gz"),
        changelog(debianVersion, maintainer, time).getBytes(StandardCharsets.UTF_8));
  }

  /** The Debian changelog: one entry for the version being built. */
  static String changelog(String debianVersion, String maintainer, OffsetDateTime time) {
    String date =
        time.format(DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.ROOT));
    return "kcshare ("
        + debianVersion
        + ") unstable; urgency=medium\n\n"
        + "  * kcshare "
        + debianVersion.replaceFirst("-[^-]*$", "").replace('~', '-')
        + ", packaged by its Maven build.\n\n"
        + " -- "
        + maintainer
        + "  "
        + date
        + "\n";
  }

  /**
   * The Debian version of a Maven version: {@code -} becomes {@code ~} (a pre-release sorts before
   * the release: {@code 0.1.0-SNAPSHOT} is {@code 0.1.0~SNAPSHOT}), and the package revision is
   * appended.
   */
  static String debianVersion(String mavenVersion, String revision) {
    return mavenVersion.replace('-', '~') + "-" + revision;
  }

  /**
   * gzip with the best compression and no file name or time in the header (as {@code gzip -9n}), so
   * equal content gives equal bytes.
   */
  static void writeGzip(Path file, byte[] content) throws IOException {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
    deflater.setInput(content);
    deflater.finish();
    CRC32 crc = new CRC32();
    crc.update(content);
    try (OutputStream out = Files.newOutputStream(file)) {
      // magic, deflate, no flags, mtime 0, XFL 2 (best compression), OS 3 (Unix)
      out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 2, 3});
      byte[] buffer = new byte[8192];
      while (!deflater.finished()) {
        int n = deflater.deflate(buffer);
        out.write(buffer, 0, n);
      }
      writeIntLe(out, (int) crc.getValue());
      writeIntLe(out, content.length);
    } finally {
      deflater.end();
    }
  }

  private static void writeIntLe(OutputStream out, int v) throws IOException {
    out.write(new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)});
  }

  private static CliContext quietContext() {
    return new CliContext(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        Map.of(),
        Path.of("").toAbsolutePath());
  }
}
