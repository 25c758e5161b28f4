package dev.kcshare.core.policy.internal;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Recognises launches that resolve their code at run time (docs/design.md#version-re-check):
 * command, args, env and launcher fingerprint stay byte-identical while the code behind them is
 * replaced upstream, so the execution identity cannot see an upgrade. Uncapped passes re-check the
 * reported version of such servers with one spawn.
 *
 * <p>Recognised: {@code npx}, {@code bunx}, {@code uvx}; {@code pnpm dlx}, {@code yarn dlx}, {@code
 * npm exec}, {@code pipx run}, {@code uv tool run}; {@code docker}/{@code podman run} unless the
 * image is pinned by digest ({@code @sha256:}); and any argument that is a package spec asking for
 * a moving version ({@code name@latest}, {@code @scope/name@next}).
 */
public final class RuntimeResolved {
  private static final Set<String> RESOLVERS = Set.of("npx", "bunx", "uvx");
  private static final Set<String> MOVING_TAGS =
      Set.of("latest", "next", "canary", "beta", "alpha");

  private RuntimeResolved() {}

  /** Whether the launch resolves its code at run time. */
  public static boolean isRuntimeResolved(String command, List<String> args) {
    String base = basename(command);
    if (base.endsWith(".exe") || base.endsWith(".cmd")) {
      base = base.substring(0, base.length() - 4);
    }
    if (RESOLVERS.contains(base)) {
      return true;
    }
    String sub = firstNonFlag(args, 0);
    switch (base) {
      case "pnpm", "yarn":
        if ("dlx".equals(sub)) {
          return true;
        }
        break;
      case "npm":
        if ("exec".equals(sub) || "x".equals(sub)) {
          return true;
        }
        break;
      case "pipx":
        if ("run".equals(sub)) {
          return true;
        }
        break;
      case "uv":
        if ("tool".equals(sub) && "run".equals(firstNonFlag(args, args.indexOf("tool") + 1))) {
          return true;
        }
        break;
      case "docker", "podman":
        if ("run".equals(sub)) {
          return args.stream().noneMatch(a -> a.contains("@sha256:"));
        }
        break;
      default:
        break;
    }
    for (String arg : args) {
      if (isMovingPackageSpec(arg)) {
        return true;
      }
    }
    return false;
  }

  /** {@code name@latest} or {@code @scope/name@next}: a package spec whose version moves. */
  static boolean isMovingPackageSpec(String arg) {
    int at = arg.lastIndexOf('@');
    if (at <= 0 || arg.startsWith("-")) {
      return false;
    }
    return MOVING_TAGS.contains(arg.substring(at + 1).toLowerCase(Locale.ROOT));
  }

  private static String basename(String command) {
    int slash = Math.max(command.lastIndexOf('/'), command.lastIndexOf('\\'));
    return command.substring(slash + 1).toLowerCase(Locale.ROOT);
  }

  private static String firstNonFlag(List<String> args, int from) {
    for (int i = Math.max(0, from); i < args.size(); i++) {
      if (!args.get(i).startsWith("-")) {
        return args.get(i);
      }
    }
    return "";
  }
}
