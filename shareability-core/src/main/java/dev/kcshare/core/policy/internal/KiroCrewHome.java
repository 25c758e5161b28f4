package dev.kcshare.core.policy.internal;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Whether the default Kiro Crew data home ({@code ~/.kiro/crew}) is a Kiro Crew installation or
 * holds only what kcshare itself put there (kcshare decision, see {@code docs/config.md}, Host
 * profile).
 *
 * <p>kcshare creates that directory on a host without Kiro Crew in two ways: the records directory
 * defaults to {@code ~/.kiro/crew/mcp-gateway}, and {@code seed}, {@code stub} and {@code unstub}
 * create {@code ~/.kiro/crew/config.json} when it does not exist. Neither makes the host a Kiro
 * Crew host, so neither may switch the automatic host profile to {@code kirocrew}: the profile
 * would otherwise flip on the run after the first measure or seed. The directory therefore counts
 * as a Kiro Crew home unless everything in it is one of kcshare's own files:
 *
 * <ul>
 *   <li>{@code config.json} (and its {@code .bak}) holding nothing but {@code
 *       mcp_gateway.stub_overrides}, the one member kcshare writes, plus {@code config.json.lock}
 *       and the temporary files of its atomic writes;
 *   <li>{@code mcp-gateway/} holding nothing but the two record files and kcshare's own {@code
 *       kcshare-*} files, their locks and temporary files.
 * </ul>
 *
 * Anything else (Kiro Crew's own files, another member in {@code config.json}, a file that cannot
 * be read, an empty directory) makes it a Kiro Crew home, as the rule of
 * docs/config.md#host-profile says: in doubt, the {@code kirocrew} profile, which withholds sharing
 * from its session-bound server.
 */
public final class KiroCrewHome {
  /** The Kiro Crew configuration file name. */
  public static final String CONFIG = "config.json";

  /** The records directory name inside the data home. */
  public static final String RECORDS = "mcp-gateway";

  private static final Set<String> RECORD_FILES =
      Set.of("observed-hazards.json", "shareability-verdicts.json");

  private KiroCrewHome() {}

  /**
   * Whether the data home holds only files kcshare writes.
   *
   * @param entries the names of the data home's entries
   * @param records the names of the entries of its {@code mcp-gateway} directory; null when {@code
   *     mcp-gateway} is missing or is not a directory
   * @param configs the parsed documents of {@code config.json} and {@code config.json.bak}, those
   *     that exist; a null element for one that could not be read or parsed
   */
  public static boolean onlyKcshareFiles(
      Collection<String> entries,
      @Nullable Collection<String> records,
      Collection<@Nullable Object> configs) {
    if (entries.isEmpty()) {
      return false;
    }
    for (String e : entries) {
      if (e.equals(RECORDS)) {
        if (records == null) {
          return false;
        }
      } else if (!isConfigFile(e)) {
        return false;
      }
    }
    if (records != null) {
      for (String r : records) {
        if (!isRecordFile(r)) {
          return false;
        }
      }
    }
    for (Object config : configs) {
      if (!onlyStubOverrides(config)) {
        return false;
      }
    }
    return true;
  }

  /** {@code config.json}, its {@code .bak} and {@code .lock}, or a temporary file of its writes. */
  static boolean isConfigFile(String name) {
    return name.equals(CONFIG)
        || name.equals(CONFIG + ".bak")
        || name.equals(CONFIG + ".lock")
        || isTemporary(name, CONFIG)
        || isTemporary(name, CONFIG + ".bak");
  }

  /** A record file, a {@code kcshare-*} file, its lock, or a temporary file of its writes. */
  static boolean isRecordFile(String name) {
    String base = name.endsWith(".lock") ? name.substring(0, name.length() - 5) : name;
    if (RECORD_FILES.contains(base) || isKcshareOwn(base)) {
      return true;
    }
    for (String f : RECORD_FILES) {
      if (isTemporary(name, f)) {
        return true;
      }
    }
    // .kcshare-*.<digits>.tmp
    return name.startsWith(".kcshare-") && name.endsWith(".tmp");
  }

  private static boolean isKcshareOwn(String name) {
    return name.startsWith("kcshare-") && name.length() > "kcshare-".length();
  }

  /** {@code .<file>.<anything>.tmp}: the temporary file of an atomic write of {@code file}. */
  private static boolean isTemporary(String name, String file) {
    return name.startsWith("." + file + ".") && name.endsWith(".tmp");
  }

  /** A document whose only member is {@code mcp_gateway}, whose only member is stub_overrides. */
  private static boolean onlyStubOverrides(@Nullable Object config) {
    if (!(config instanceof Map<?, ?> top) || top.isEmpty()) {
      return false;
    }
    for (Map.Entry<?, ?> e : top.entrySet()) {
      if (!"mcp_gateway".equals(e.getKey()) || !(e.getValue() instanceof Map<?, ?> section)) {
        return false;
      }
      for (Object key : section.keySet()) {
        if (!"stub_overrides".equals(key)) {
          return false;
        }
      }
    }
    return true;
  }
}
