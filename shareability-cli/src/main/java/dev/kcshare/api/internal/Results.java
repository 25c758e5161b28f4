package dev.kcshare.api.internal;

import dev.kcshare.api.ConfiguredServer;
import dev.kcshare.api.ServerDefinition;
import dev.kcshare.api.UnusableEntry;
import dev.kcshare.core.cost.SessionCost;
import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.handshake.PreflightResult;
import dev.kcshare.core.text.IdentityText;
import dev.kcshare.core.verdict.Evidence;
import dev.kcshare.core.verdict.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The records behind the result interfaces of {@code dev.kcshare.api}, each named as the interface
 * it implements (so it prints as before) and documented there: they validate and copy what they are
 * given, and are equal when their components are.
 */
public final class Results {
  private Results() {}

  /**
   * A {@link dev.kcshare.api.PassResult}; the collections are copied, the maps keep their order.
   */
  public record PassResult(
      dev.kcshare.api.PassResult.Outcome outcome,
      List<dev.kcshare.api.PassResult.Measured> fresh,
      Map<String, dev.kcshare.api.PassResult.Stored> stored,
      dev.kcshare.api.PassProgress progress,
      Map<String, Instant> skipped)
      implements dev.kcshare.api.PassResult {
    /** Validates and copies. */
    public PassResult {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(progress, "progress");
      fresh = List.copyOf(fresh);
      stored = Collections.unmodifiableMap(new LinkedHashMap<>(stored));
      skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
    }
  }

  /** A {@link dev.kcshare.api.PassResult.Measured}. */
  public record Measured(
      String name,
      PreflightResult result,
      boolean stored,
      String stderrTail,
      @Nullable String exitStatus,
      int failuresInARow,
      dev.kcshare.api.PassResult.@Nullable Launch launch,
      List<dev.kcshare.api.PassResult.Spawn> processes)
      implements dev.kcshare.api.PassResult.Measured {
    /** Validates and copies. */
    public Measured {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(result, "result");
      Objects.requireNonNull(stderrTail, "stderrTail");
      if (failuresInARow < 0) {
        throw new IllegalArgumentException(
            "failuresInARow must not be negative: " + failuresInARow);
      }
      processes = List.copyOf(processes);
    }

    /**
     * A result without process diagnostics: no failures remembered, no launch, no processes.
     *
     * @param name the server name
     * @param result the pre-flight result
     * @param stored whether it was stored
     * @param stderrTail the end of its stderr ({@code ""} when none)
     * @param exitStatus how its process ended, or null
     */
    public Measured(
        String name,
        PreflightResult result,
        boolean stored,
        String stderrTail,
        @Nullable String exitStatus) {
      this(name, result, stored, stderrTail, exitStatus, 0, null, List.of());
    }
  }

  /** A {@link dev.kcshare.api.PassResult.Launch}. */
  public record Launch(List<String> commandLine, List<String> declaredEnvNames, String directory)
      implements dev.kcshare.api.PassResult.Launch {
    /** Validates and copies. */
    public Launch {
      commandLine = List.copyOf(commandLine);
      declaredEnvNames = List.copyOf(declaredEnvNames);
      Objects.requireNonNull(directory, "directory");
    }
  }

  /** A {@link dev.kcshare.api.PassResult.Spawn}. */
  public record Spawn(
      String identity,
      Era era,
      boolean retry,
      dev.kcshare.api.PassResult.Spawn.Status status,
      @Nullable String failure,
      String stderrTail,
      @Nullable String exitStatus,
      dev.kcshare.api.PassResult.@Nullable Phases phases)
      implements dev.kcshare.api.PassResult.Spawn {
    /** Validates. */
    public Spawn {
      Objects.requireNonNull(identity, "identity");
      Objects.requireNonNull(era, "era");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(stderrTail, "stderrTail");
    }
  }

  /** A {@link dev.kcshare.api.PassResult.Phases}. */
  public record Phases(
      Duration spawn,
      @Nullable Duration answer,
      @Nullable Duration toolsList,
      @Nullable Duration exit)
      implements dev.kcshare.api.PassResult.Phases {
    /** Validates. */
    public Phases {
      Objects.requireNonNull(spawn, "spawn");
    }
  }

  /** A {@link dev.kcshare.api.PassResult.Stored}. */
  public record Stored(
      String identity,
      boolean ran,
      List<String> reasons,
      Instant measuredAt,
      String reportedVersion,
      @Nullable SessionCost cost)
      implements dev.kcshare.api.PassResult.Stored {
    /** Validates and copies. */
    public Stored {
      Objects.requireNonNull(identity, "identity");
      reasons = List.copyOf(reasons);
      Objects.requireNonNull(measuredAt, "measuredAt");
      Objects.requireNonNull(reportedVersion, "reportedVersion");
    }

    /** The components, the identity's NUL separators written as {@code \0}. */
    @Override
    public String toString() {
      return "Stored[identity="
          + IdentityText.shown(identity)
          + ", ran="
          + ran
          + ", reasons="
          + reasons
          + ", measuredAt="
          + measuredAt
          + ", reportedVersion="
          + reportedVersion
          + ", cost="
          + cost
          + "]";
    }
  }

  /** A {@link dev.kcshare.api.PassProgress}. */
  public record PassProgress(boolean running, int done, int measured, int total)
      implements dev.kcshare.api.PassProgress {}

  /** A {@link dev.kcshare.api.ServerVerdict}. */
  public record ServerVerdict(
      ConfiguredServer server,
      Verdict verdict,
      Evidence evidence,
      Optional<Instant> measuredAt,
      Optional<SessionCost> sessionCost,
      boolean identitiesAgree)
      implements dev.kcshare.api.ServerVerdict {
    /** Validates. */
    public ServerVerdict {
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(evidence, "evidence");
      Objects.requireNonNull(measuredAt, "measuredAt");
      Objects.requireNonNull(sessionCost, "sessionCost");
    }
  }

  /** A {@link dev.kcshare.api.ConfigFile}; the lists are copied. */
  public record ConfigFile(
      String display,
      Path path,
      String origin,
      List<String> formats,
      dev.kcshare.api.ConfigFile.Status status,
      List<String> problems,
      List<String> warnings,
      int servers,
      List<UnusableEntry> unusableEntries)
      implements dev.kcshare.api.ConfigFile {
    /** Validates and copies. */
    public ConfigFile {
      Objects.requireNonNull(display, "display");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(origin, "origin");
      formats = List.copyOf(formats);
      Objects.requireNonNull(status, "status");
      problems = List.copyOf(problems);
      warnings = List.copyOf(warnings);
      unusableEntries = List.copyOf(unusableEntries);
    }

    /**
     * A file without unusable entries.
     *
     * @param display the file as displayed
     * @param path the absolute path
     * @param origin the source slot it filled
     * @param formats the ids of the formats read from it
     * @param status the outcome
     * @param problems what made it an error or made kcshare skip it
     * @param warnings non-fatal notes
     * @param servers how many server definitions it contributed
     */
    public ConfigFile(
        String display,
        Path path,
        String origin,
        List<String> formats,
        dev.kcshare.api.ConfigFile.Status status,
        List<String> problems,
        List<String> warnings,
        int servers) {
      this(display, path, origin, formats, status, problems, warnings, servers, List.of());
    }
  }

  /** A {@link dev.kcshare.api.ConfiguredDefinition}; the list and the map are copied. */
  public record ConfiguredDefinition(
      ServerDefinition definition,
      String file,
      Path path,
      String pointer,
      String format,
      String client,
      @Nullable String identity,
      List<dev.kcshare.api.UnresolvedVariable> unresolved,
      Map<String, String> envOrigins)
      implements dev.kcshare.api.ConfiguredDefinition {
    /** Validates and copies. */
    public ConfiguredDefinition {
      Objects.requireNonNull(definition, "definition");
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(pointer, "pointer");
      Objects.requireNonNull(format, "format");
      Objects.requireNonNull(client, "client");
      unresolved = List.copyOf(unresolved);
      envOrigins = Collections.unmodifiableMap(new LinkedHashMap<>(envOrigins));
    }

    /**
     * A definition whose env is the entry's own.
     *
     * @param definition the definition after variable substitution
     * @param file the file as displayed
     * @param path the file's absolute path
     * @param pointer JSON pointer of the entry in that file
     * @param format the file's format id
     * @param client the client that reads that file
     * @param identity the execution identity of a stdio definition, or null
     * @param unresolved variable references left unresolved in it
     */
    public ConfiguredDefinition(
        ServerDefinition definition,
        String file,
        Path path,
        String pointer,
        String format,
        String client,
        @Nullable String identity,
        List<dev.kcshare.api.UnresolvedVariable> unresolved) {
      this(definition, file, path, pointer, format, client, identity, unresolved, Map.of());
    }

    /** The components, the identity's NUL separators written as {@code \0}. */
    @Override
    public String toString() {
      return "ConfiguredDefinition[definition="
          + definition
          + ", file="
          + file
          + ", path="
          + path
          + ", pointer="
          + pointer
          + ", format="
          + format
          + ", client="
          + client
          + ", identity="
          + IdentityText.shown(identity)
          + ", unresolved="
          + unresolved
          + "]";
    }
  }

  /** A {@link dev.kcshare.api.UnresolvedVariable}. */
  public record UnresolvedVariable(
      String server,
      String file,
      String pointer,
      String reference,
      dev.kcshare.api.UnresolvedVariable.Reason reason)
      implements dev.kcshare.api.UnresolvedVariable {
    /** Validates. */
    public UnresolvedVariable {
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(pointer, "pointer");
      Objects.requireNonNull(reference, "reference");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
