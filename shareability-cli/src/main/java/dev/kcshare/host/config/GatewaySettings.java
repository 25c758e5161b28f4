package dev.kcshare.host.config;

import dev.kcshare.core.json.internal.JsonInputException;
import dev.kcshare.core.policy.Seeding;
import dev.kcshare.core.verdict.IdentityKeys;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The Kiro Crew {@code mcp_gateway} section as kcshare reads it
 * (docs/design.md#roster-and-effective-stub-set, docs/design.md#bulk-stub-eligibility;
 * docs/formats.md#where-the-files-live).
 *
 * <p>Read as tolerantly as the gateway reads it: a roster or override of the wrong shape is empty
 * rather than an error, because the gateway runs with it that way. Only {@code socket_path} is
 * type-checked, since it decides where the records live. Raw values are kept where the engine wants
 * raw JSON ({@code pool_identity_env} for {@link IdentityKeys#resolve}, the whole section for
 * seeding).
 *
 * <p>No local overlay is read: the gateway's eligibility rule mentions one ("a local overlay wins
 * over the base config") without naming a file, so the base section is the effective one.
 */
public final class GatewaySettings {
  private static final GatewaySettings ABSENT = new GatewaySettings(null, false, Map.of());

  private final @Nullable String source;
  private final boolean present;
  private final Map<String, @Nullable Object> section;

  private GatewaySettings(
      @Nullable String source, boolean present, Map<String, @Nullable Object> section) {
    this.source = source;
    this.present = present;
    this.section = section;
  }

  /** No Kiro Crew configuration, or one without an {@code mcp_gateway} section. */
  public static GatewaySettings absent() {
    return ABSENT;
  }

  /**
   * Reads the section out of a parsed Kiro Crew configuration document.
   *
   * @param root the parsed document
   * @param source how the file is named in output
   * @throws JsonInputException when the root or the section is not an object, or {@code
   *     socket_path} is neither a string nor null
   */
  public static GatewaySettings fromDocument(@Nullable Object root, String source) {
    if (!(root instanceof Map<?, ?> top)) {
      throw EntryParser.expected("", "an object", root);
    }
    if (!top.containsKey("mcp_gateway")) {
      return new GatewaySettings(source, false, Map.of());
    }
    Object section = top.get("mcp_gateway");
    if (section == null) {
      return new GatewaySettings(source, false, Map.of());
    }
    if (!(section instanceof Map<?, ?> map)) {
      throw EntryParser.expected("/mcp_gateway", "an object", section);
    }
    Object socket = map.get("socket_path");
    if (socket != null && !(socket instanceof String)) {
      throw EntryParser.expected("/mcp_gateway/socket_path", "a string or null", socket);
    }
    @SuppressWarnings("unchecked")
    Map<String, @Nullable Object> copy = (Map<String, @Nullable Object>) deepCopy(map, false);
    return new GatewaySettings(source, true, copy);
  }

  /**
   * The settings as {@link dev.kcshare.api.HostServers} carries them: the file they came from (null
   * when none was read) and the section, when there is one (an unmodifiable JSON tree).
   */
  public static GatewaySettings of(
      @Nullable String source, Optional<Map<String, @Nullable Object>> section) {
    if (source == null && section.isEmpty()) {
      return ABSENT;
    }
    return new GatewaySettings(source, section.isPresent(), section.orElse(Map.of()));
  }

  /** The section when there is one, unmodifiable ({@link #present()}); empty otherwise. */
  public Optional<Map<String, @Nullable Object>> view() {
    return present ? Optional.of(section) : Optional.empty();
  }

  /** The file the section came from, as displayed; null when no Kiro Crew config was read. */
  public @Nullable String source() {
    return source;
  }

  /** Whether an {@code mcp_gateway} section was found. */
  public boolean present() {
    return present;
  }

  /** The raw {@code enabled} value (the global sharing switch). */
  public @Nullable Object enabled() {
    return section.get("enabled");
  }

  /** Sharing is on only when {@code enabled} is boolean {@code true}. */
  public boolean sharingOn() {
    return Boolean.TRUE.equals(section.get("enabled"));
  }

  /** {@code socket_path}, or null when absent or null. */
  public @Nullable String socketPath() {
    return (String) section.get("socket_path");
  }

  /**
   * Where the roster came from: {@code "stub_servers"} when that key is present (whatever its
   * value), {@code "poolable_servers"} for the deprecated alias (only when {@code stub_servers} is
   * absent and {@code enabled} is {@code true}), otherwise {@code "none"}.
   */
  public String rosterSource() {
    if (section.containsKey("stub_servers")) {
      return "stub_servers";
    }
    return sharingOn() && section.containsKey("poolable_servers") ? "poolable_servers" : "none";
  }

  /**
   * The roster by the key-presence rule of docs/design.md#roster-and-effective-stub-set ({@link
   * Seeding#roster}): in file order, duplicates collapsed to the first occurrence.
   */
  public List<String> roster() {
    return Seeding.roster(section);
  }

  /**
   * The valid {@code stub_overrides} ({@link Seeding#validOverrides}): members with a non-empty
   * name and a boolean value, in file order.
   */
  public Map<String, Boolean> stubOverrides() {
    return Collections.unmodifiableMap(Seeding.validOverrides(section));
  }

  /** The effective stub set ({@link Seeding#effectiveStubSet}). */
  public List<String> effectiveStubSet() {
    return List.copyOf(Seeding.effectiveStubSet(section));
  }

  /** The raw {@code pool_identity_env} value, for {@link IdentityKeys#resolve}. */
  public @Nullable Object poolIdentityEnv() {
    return section.get("pool_identity_env");
  }

  /** {@code pool_identity_env} resolved: trimmed, blanks and credential-scrub names dropped. */
  public Set<String> identityKeys() {
    return IdentityKeys.resolve(poolIdentityEnv());
  }

  /**
   * {@code forward_declared_env} when it is a boolean; null when absent or of another type, in
   * which case the gateway's own default applies (not decided by kcshare).
   */
  public @Nullable Boolean forwardDeclaredEnv() {
    return section.get("forward_declared_env") instanceof Boolean b ? b : null;
  }

  /**
   * The effective {@code forward_declared_env}: ON only when it is {@code true}. Unset (or not a
   * boolean) reads as OFF: with forwarding off every declared env key is withheld from a shared
   * backend, the reading that can never call a server shareable that the gateway would starve of
   * its env.
   */
  public boolean forwardsDeclaredEnv() {
    return Boolean.TRUE.equals(forwardDeclaredEnv());
  }

  /**
   * A mutable deep copy of the whole section, for a caller that plans a seeding write (engine
   * docs/design.md#seeding-apply). Empty when the section is absent.
   */
  @SuppressWarnings("unchecked")
  public Map<String, @Nullable Object> section() {
    return (Map<String, @Nullable Object>) deepCopy(section, true);
  }

  /**
   * Copies a JSON tree. Depth is bounded by the reader's nesting limit, so recursion is safe here.
   */
  private static @Nullable Object deepCopy(@Nullable Object value, boolean mutable) {
    if (value instanceof Map<?, ?> map) {
      Map<String, @Nullable Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(String.valueOf(e.getKey()), deepCopy(e.getValue(), mutable));
      }
      return mutable ? out : Collections.unmodifiableMap(out);
    }
    if (value instanceof List<?> list) {
      List<@Nullable Object> out = new ArrayList<>(list.size());
      for (Object element : list) {
        out.add(deepCopy(element, mutable));
      }
      return mutable ? out : Collections.unmodifiableList(out);
    }
    return value;
  }
}
