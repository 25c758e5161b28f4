package dev.kcshare.host.config;

import dev.kcshare.api.ConfigFile;
import dev.kcshare.api.ConfiguredDefinition;
import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.HostServers;
import dev.kcshare.api.UnresolvedVariable;
import dev.kcshare.api.UnusableEntry;
import dev.kcshare.core.text.ClosestName;
import dev.kcshare.core.text.Escaper;
import dev.kcshare.core.verdict.HostProfile;
import dev.kcshare.host.BadInputException;
import dev.kcshare.host.HostContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The servers from the host's configs: the one {@link HostServers} value, which the loader builds
 * and {@code Shareability.hostServers} hands out as it is, with what only the commands need on top
 * (named servers or exit 2, the Kiro Crew gateway settings as {@link GatewaySettings}, the
 * documented JSON form). Built by {@link HostConfigLoader#load}; immutable.
 */
public final class HostConfig implements HostServers {
  private final List<ConfigFile> files;
  private final List<ConfiguredServer> servers;
  private final List<ConfiguredServer> clientParts;
  private final GatewaySettings gateway;
  private final ProfileSelection profile;

  /**
   * The servers from their parts; the lists are copied.
   *
   * @param files every file looked at, in source order
   * @param servers the server names in order of first appearance, without the client parts
   * @param clientParts the names whose every definition is part of its client
   * @param gateway the {@code mcp_gateway} settings ({@link GatewaySettings#absent()} when none)
   * @param profile the host profile in force and why
   */
  public HostConfig(
      List<ConfigFile> files,
      List<ConfiguredServer> servers,
      List<ConfiguredServer> clientParts,
      GatewaySettings gateway,
      ProfileSelection profile) {
    this.files = List.copyOf(files);
    this.servers = List.copyOf(servers);
    this.clientParts = List.copyOf(clientParts);
    this.gateway = Objects.requireNonNull(gateway, "gateway");
    this.profile = Objects.requireNonNull(profile, "profile");
  }

  /**
   * The commands' view of {@code servers}: the value itself when the loader built it (as {@code
   * Shareability.hostServers} returns it), else one with the same parts.
   */
  public static HostConfig of(HostServers servers) {
    if (servers instanceof HostConfig h) {
      return h;
    }
    return new HostConfig(
        servers.files(),
        servers.servers(),
        servers.clientParts(),
        GatewaySettings.of(servers.gatewaySource(), servers.gatewaySection()),
        new ProfileSelection(
            servers.profileName(), servers.hostProfile(), servers.profileReason()));
  }

  @Override
  public List<ConfigFile> files() {
    return files;
  }

  @Override
  public List<ConfiguredServer> servers() {
    return servers;
  }

  @Override
  public List<ConfiguredServer> clientParts() {
    return clientParts;
  }

  @Override
  public String profileName() {
    return profile.name();
  }

  @Override
  public HostProfile hostProfile() {
    return profile.profile();
  }

  @Override
  public String profileReason() {
    return profile.reason();
  }

  @Override
  public @Nullable String gatewaySource() {
    return gateway.source();
  }

  @Override
  public Optional<Map<String, @Nullable Object>> gatewaySection() {
    return gateway.view();
  }

  /** The {@code mcp_gateway} settings ({@link GatewaySettings#absent()} when none). */
  public GatewaySettings gateway() {
    return gateway;
  }

  /**
   * The configuration file that holds {@code mcp_gateway}, which {@code seed}, {@code stub} and
   * {@code unstub} write: the file the gateway settings were read from, else the Kiro Crew
   * configuration ({@code $KIROCREW_HOME/config.json}, default {@code ~/.kiro/crew/config.json}),
   * which is where the gateway reads them.
   */
  public Path gatewayConfigFile(HostContext context) {
    String source = gateway.source();
    if (source != null) {
      for (ConfigFile f : files()) {
        if (f.display().equals(source) && f.formats().contains(ConfigFormat.KIROCREW.id())) {
          return f.path();
        }
      }
    }
    return context
        .cwd()
        .resolve(KiroCrewConfig.configFile(context.env()))
        .toAbsolutePath()
        .normalize();
  }

  /** The host profile in force and why. */
  public ProfileSelection profile() {
    return profile;
  }

  /** The server of that name, or null when no file defines it ({@link #server} as a null). */
  public @Nullable ConfiguredServer serverNamed(String name) {
    return server(name).orElse(null);
  }

  /** The client part of that name ({@link #clientParts}), or null when there is none. */
  public @Nullable ConfiguredServer clientPartNamed(String name) {
    return clientPart(name).orElse(null);
  }

  /**
   * {@code "developer" is part of Goose (a builtin extension), not a server process kcshare can
   * start: nothing to measure, share or stub}.
   */
  public static String clientPartText(ConfiguredServer part) {
    List<String> types = new ArrayList<>();
    for (ConfiguredDefinition d : part.configured()) {
      String type = d.definition().type();
      String kind = "extension".equals(type) ? "an extension" : "a " + type + " extension";
      if (type != null && !types.contains(kind)) {
        types.add(kind);
      }
    }
    return Escaper.quoted(part.name(), Escaper.SHORT_LIMIT)
        + " is part of "
        + String.join(", ", part.clients())
        + " ("
        + Escaper.esc(String.join(", ", types), Escaper.SHORT_LIMIT)
        + "), not a server process kcshare can start: nothing to measure, share or stub";
  }

  /**
   * The servers named on a command line, in the order given (a repeated name counts once).
   *
   * @throws BadInputException naming every name no file defines, each with the closest configured
   *     name when one is close ({@link #unknownServer})
   */
  public List<ConfiguredServer> require(Collection<String> names) {
    List<ConfiguredServer> out = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String name : new LinkedHashSet<>(names)) {
      ConfiguredServer s = serverNamed(name);
      ConfiguredServer part = s == null ? clientPartNamed(name) : null;
      if (part != null) {
        unknown.add(clientPartText(part));
      } else if (s == null) {
        unknown.add(unknownServer(name));
      } else {
        out.add(s);
      }
    }
    if (!unknown.isEmpty()) {
      throw new BadInputException(String.join(System.lineSeparator(), unknown));
    }
    return out;
  }

  /** Every configured server name, in config order. */
  public List<String> names() {
    List<String> out = new ArrayList<>(servers().size());
    for (ConfiguredServer s : servers()) {
      out.add(s.name());
    }
    return out;
  }

  /**
   * The message for a name no file defines: {@code unknown server "godo": did you mean "good"? (see
   * kcshare config)}, or without the question when no configured name is close; for a name only an
   * unusable entry has ({@link HostServers#unusableEntries()}), {@code "bad": the entry at FILE
   * POINTER cannot be used: WHY}, one line per such entry.
   */
  public String unknownServer(String name) {
    List<String> unusable = new ArrayList<>();
    for (UnusableEntry u : unusableEntries()) {
      if (u.server().equals(name)) {
        unusable.add(
            Escaper.quoted(name, Escaper.SHORT_LIMIT)
                + ": the entry at "
                + Escaper.esc(u.file(), Escaper.LONG_LIMIT)
                + " "
                + Escaper.esc(u.pointer().isEmpty() ? "(root)" : u.pointer(), Escaper.LONG_LIMIT)
                + " cannot be used: "
                + Escaper.esc(u.problem(), Escaper.LONG_LIMIT));
      }
    }
    if (!unusable.isEmpty()) {
      return String.join(System.lineSeparator(), unusable);
    }
    String hint = ClosestName.closest(name, names());
    return "unknown server "
        + Escaper.quoted(name, Escaper.SHORT_LIMIT)
        + (hint == null ? "" : ": did you mean " + Escaper.quoted(hint, Escaper.SHORT_LIMIT) + "?")
        + " (see kcshare config)";
  }

  /** The names whose definitions disagree, in config order, with how they disagree. */
  public List<Conflict> conflictDetails() {
    List<Conflict> out = new ArrayList<>();
    for (ConfiguredServer s : servers()) {
      Conflict c = Conflict.of(s);
      if (c != null) {
        out.add(c);
      }
    }
    return List.copyOf(out);
  }

  /**
   * This configuration, when every named file could be used. Skipped discovered files do not stop
   * it.
   *
   * @throws BadInputException naming every file, pointer and problem otherwise (exit 2): a named
   *     configuration read in part could hide a conflicting definition, so no verdict is built on
   *     it
   */
  public HostConfig requireValid() {
    List<String> errors = errors();
    if (errors.isEmpty()) {
      return this;
    }
    List<String> lines = new ArrayList<>(errors.size());
    for (String e : errors) {
      lines.add(Escaper.esc(e, Escaper.LONG_LIMIT));
    }
    throw new BadInputException(String.join(System.lineSeparator(), lines));
  }

  /**
   * This configuration, when the Kiro Crew configuration could be read: the commands that write it,
   * or whose answer depends on its gateway settings, cannot be answered correctly from the other
   * files alone ({@code docs/config.md}).
   *
   * @throws BadInputException naming the file and its problem (exit 2) when it was skipped
   */
  public HostConfig requireGatewaySettings() {
    for (ConfigFile f : files()) {
      if (f.origin().equals("kirocrew") && f.status() == ConfigFile.Status.SKIPPED) {
        List<String> lines = new ArrayList<>();
        for (String problem : f.problems()) {
          lines.add(Escaper.esc(f.describe(problem), Escaper.LONG_LIMIT));
        }
        throw new BadInputException(
            String.join(System.lineSeparator(), lines)
                + System.lineSeparator()
                + "the Kiro Crew configuration is needed for this command; fix it (or name the"
                + " records directory with --records-dir where that is enough)");
      }
    }
    return this;
  }

  /**
   * The documented JSON form ({@code docs/config.md}): {@code profile}, {@code files}, {@code
   * gateway}, {@code identityKeys}, {@code servers}, {@code clientParts}, {@code conflicts}, {@code
   * unresolved}, {@code errors}, {@code skipped}. Env names only, never env values.
   */
  public Map<String, @Nullable Object> toJson() {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    Map<String, @Nullable Object> p = new LinkedHashMap<>();
    p.put("name", profile().name());
    p.put("reason", profile().reason());
    out.put("profile", p);
    List<@Nullable Object> fileList = new ArrayList<>();
    for (ConfigFile f : files()) {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("file", f.display());
      m.put("path", f.path().toString());
      m.put("origin", f.origin());
      m.put("formats", f.formats());
      m.put("status", f.status().id());
      m.put("servers", f.servers());
      m.put("problems", f.problems());
      m.put("warnings", f.warnings());
      List<@Nullable Object> unusable = new ArrayList<>();
      for (UnusableEntry u : f.unusableEntries()) {
        Map<String, @Nullable Object> um = new LinkedHashMap<>();
        um.put("server", u.server());
        um.put("pointer", u.pointer());
        um.put("problem", u.problem());
        unusable.add(um);
      }
      m.put("unusableEntries", unusable);
      fileList.add(m);
    }
    out.put("files", fileList);
    out.put("gateway", gatewayJson());
    out.put("identityKeys", List.copyOf(identityKeys()));
    List<@Nullable Object> serverList = new ArrayList<>();
    for (ConfiguredServer s : servers()) {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("name", s.name());
      m.put("stdio", s.isStdio());
      m.put("declaredEnvNames", s.declaredEnvNames());
      m.put("identity", s.commonIdentity());
      m.put("conflict", s.isConflicting());
      List<@Nullable Object> defs = new ArrayList<>();
      for (ConfiguredDefinition d : s.configured()) {
        defs.add(definitionJson(d));
      }
      m.put("definitions", defs);
      m.put("clients", s.clients());
      m.put("differences", s.differences());
      serverList.add(m);
    }
    out.put("servers", serverList);
    List<@Nullable Object> partList = new ArrayList<>();
    for (ConfiguredServer s : clientParts()) {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("name", s.name());
      m.put("clients", s.clients());
      List<@Nullable Object> defs = new ArrayList<>();
      for (ConfiguredDefinition d : s.configured()) {
        Map<String, @Nullable Object> dm = new LinkedHashMap<>();
        dm.put("source", d.file());
        dm.put("pointer", d.pointer());
        dm.put("type", d.definition().type());
        defs.add(dm);
      }
      m.put("definitions", defs);
      partList.add(m);
    }
    out.put("clientParts", partList);
    List<@Nullable Object> conflictList = new ArrayList<>();
    for (Conflict c : conflictDetails()) {
      Map<String, @Nullable Object> m = new LinkedHashMap<>();
      m.put("name", c.name());
      m.put("reason", c.reason());
      List<@Nullable Object> defs = new ArrayList<>();
      for (ConfiguredDefinition d : c.definitions()) {
        Map<String, @Nullable Object> dm = new LinkedHashMap<>();
        dm.put("source", d.file());
        dm.put("pointer", d.pointer());
        dm.put("stdio", d.isStdio());
        dm.put("identity", d.identity());
        defs.add(dm);
      }
      m.put("definitions", defs);
      m.put("differences", c.differences());
      conflictList.add(m);
    }
    out.put("conflicts", conflictList);
    List<@Nullable Object> unresolvedList = new ArrayList<>();
    for (UnresolvedVariable u : unresolved()) {
      unresolvedList.add(unresolvedJson(u, true));
    }
    out.put("unresolved", unresolvedList);
    out.put("errors", errors());
    out.put("skipped", skipped());
    return out;
  }

  private @Nullable Map<String, @Nullable Object> gatewayJson() {
    if (gateway().source() == null) {
      return null;
    }
    Map<String, @Nullable Object> g = new LinkedHashMap<>();
    g.put("source", gateway().source());
    g.put("present", gateway().present());
    g.put("sharingOn", gateway().sharingOn());
    g.put("socketPath", gateway().socketPath());
    g.put("rosterSource", gateway().rosterSource());
    g.put("roster", gateway().roster());
    g.put("stubOverrides", new LinkedHashMap<String, @Nullable Object>(gateway().stubOverrides()));
    g.put("effectiveStubSet", gateway().effectiveStubSet());
    g.put("forwardDeclaredEnv", gateway().forwardDeclaredEnv());
    g.put("identityKeys", List.copyOf(gateway().identityKeys()));
    return g;
  }

  private static Map<String, @Nullable Object> definitionJson(ConfiguredDefinition d) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    m.put("source", d.file());
    m.put("path", d.path().toString());
    m.put("pointer", d.pointer());
    m.put("format", d.format());
    m.put("command", d.definition().command());
    m.put("args", d.definition().shownArgs());
    m.put("envNames", d.envNames());
    m.put("cwd", d.definition().cwd());
    m.put("disabled", d.definition().disabled());
    m.put("url", d.definition().shownUrl());
    m.put("type", d.definition().type());
    m.put("stdio", d.isStdio());
    m.put("identity", d.identity());
    List<@Nullable Object> unresolved = new ArrayList<>();
    for (UnresolvedVariable u : d.unresolved()) {
      unresolved.add(unresolvedJson(u, false));
    }
    m.put("unresolved", unresolved);
    m.put("client", d.client());
    m.put("unsetEnvNames", d.definition().unsetEnv());
    Map<String, @Nullable Object> origins = new LinkedHashMap<>();
    for (String name : d.envNames()) {
      origins.put(name, d.envOrigin(name));
    }
    m.put("envOrigins", origins);
    m.put("inheritedEnvNames", d.definition().inheritedEnv());
    return m;
  }

  private static Map<String, @Nullable Object> unresolvedJson(
      UnresolvedVariable u, boolean withServer) {
    Map<String, @Nullable Object> m = new LinkedHashMap<>();
    if (withServer) {
      m.put("server", u.server());
      m.put("source", u.file());
    }
    m.put("pointer", u.pointer());
    m.put("reference", u.reference());
    m.put("reason", u.reason().id());
    return m;
  }
}
