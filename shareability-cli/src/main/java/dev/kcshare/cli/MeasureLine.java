package dev.kcshare.cli;

import dev.kcshare.api.ConfigRequest;
import dev.kcshare.core.policy.internal.Selection;
import dev.kcshare.host.prober.ProbeOptions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A plain {@code kcshare measure SERVER} command line, read without picocli, so that the pre-flight
 * can start before picocli's command model is built.
 *
 * <p>It reads only the simplest form: {@code measure} first, one server name, and the options
 * {@code --config}, {@code --discover}, {@code --profile}, {@code --records-dir}, {@code
 * --timeout}, {@code -j}/{@code --jobs}, {@code --json} and {@code --no-wait}, each given as {@code
 * --name VALUE} or {@code --name=VALUE}, every one but {@code --config} at most once, with values
 * that picocli reads the same way. Anything else ({@code -v}, {@code -q}, {@code --all}, {@code
 * --help}, an {@code @file}, {@code --}, a second name, a value that looks like an option, a number
 * picocli could read differently, a timeout or job count the command would refuse) is not read at
 * all: {@link #parse} returns null and the command line takes the ordinary path. Whatever it
 * accepts, picocli parses to the same values (a test holds the two together).
 *
 * @param name the server to measure
 * @param config the configuration the command line names
 * @param recordsDir the {@code --records-dir} value, or null
 * @param timeoutSeconds the per-response timeout
 * @param jobs the process ceiling
 * @param json whether {@code --json} was given
 * @param noWait whether {@code --no-wait} was given
 */
record MeasureLine(
    String name,
    ConfigRequest config,
    @Nullable String recordsDir,
    int timeoutSeconds,
    int jobs,
    boolean json,
    boolean noWait) {

  /** The command line read, or null when it is not a plain {@code measure SERVER}. */
  static @Nullable MeasureLine parse(String... args) {
    if (args.length < 2 || !args[0].equals("measure")) {
      return null;
    }
    String name = null;
    List<String> configFiles = new ArrayList<>();
    boolean discover = false;
    String profile = null;
    String recordsDir = null;
    int timeout = (int) ProbeOptions.DEFAULT_TIMEOUT.toSeconds();
    int jobs = Selection.defaultProcessCeiling(Runtime.getRuntime().availableProcessors());
    boolean json = false;
    boolean noWait = false;
    Set<String> seen = new HashSet<>();
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      if (arg.isEmpty() || arg.charAt(0) == '@') {
        return null; // an @file is expanded by picocli
      }
      if (arg.charAt(0) != '-') {
        if (name != null) {
          return null;
        }
        name = arg;
        continue;
      }
      String option = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 2) {
        option = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (option.equals("-j")) {
        option = "--jobs";
        if (!arg.equals("-j")) {
          return null; // -jN, -j=N
        }
      }
      if (!option.equals("--config") && !seen.add(option)) {
        return null; // given twice: picocli refuses it
      }
      switch (option) {
        case "--discover", "--json", "--no-wait" -> {
          if (value != null) {
            return null;
          }
          discover |= option.equals("--discover");
          json |= option.equals("--json");
          noWait |= option.equals("--no-wait");
        }
        case "--config", "--profile", "--records-dir", "--timeout", "--jobs" -> {
          if (value == null) {
            if (i + 1 >= args.length) {
              return null;
            }
            value = args[++i];
            if (value.isEmpty() || value.charAt(0) == '-' || value.charAt(0) == '@') {
              return null;
            }
          }
          switch (option) {
            case "--config" -> configFiles.add(value);
            case "--profile" -> profile = value;
            case "--records-dir" -> recordsDir = value;
            case "--timeout" -> timeout = number(value, 3);
            default -> jobs = number(value, 4);
          }
        }
        default -> {
          return null;
        }
      }
    }
    long minTimeout = ProbeOptions.MIN_TIMEOUT.toSeconds();
    long maxTimeout = ProbeOptions.MAX_TIMEOUT.toSeconds();
    if (name == null || jobs < 1 || timeout < minTimeout || timeout > maxTimeout) {
      return null;
    }
    return new MeasureLine(
        name,
        ConfigRequest.files(configFiles).discover(discover).profile(profile),
        recordsDir,
        timeout,
        jobs,
        json,
        noWait);
  }

  /**
   * Field by field, written out: a record's generated {@code equals} is bootstrapped through method
   * handles on its first call, which cost tens of milliseconds at start-up.
   */
  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof MeasureLine l
        && name.equals(l.name)
        && config.configFiles().equals(l.config.configFiles())
        && config.discover() == l.config.discover()
        && Objects.equals(config.profile(), l.config.profile())
        && Objects.equals(recordsDir, l.recordsDir)
        && timeoutSeconds == l.timeoutSeconds
        && jobs == l.jobs
        && json == l.json
        && noWait == l.noWait;
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + timeoutSeconds * 7 + jobs;
  }

  /** Plain decimal digits without a leading zero, at most {@code digits} of them; else -1. */
  private static int number(String value, int digits) {
    if (value.isEmpty() || value.length() > digits || value.charAt(0) == '0') {
      return -1;
    }
    int n = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }
}
