package dev.kcshare.host.prober;

import dev.kcshare.api.ServerDefinition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Probers and process checks for tests outside this package (the evaluation pass, commands). */
public final class TestProbers {
  private TestProbers() {}

  /** A prober with the given timeout and process ceiling. */
  public static StdioProber prober(
      Map<String, String> env, Path cwd, int timeoutSeconds, int ceiling) {
    return StdioProber.create(
        env,
        cwd,
        ProbeOptions.defaults().withTimeout(Duration.ofSeconds(timeoutSeconds)),
        ProcessPermits.of(ceiling));
  }

  /**
   * A prober whose orchestration throws {@code failure} for the server named {@code name}, after
   * the refusals and before anything is spawned (an unexpected failure in the pre-flight).
   */
  public static StdioProber failingFor(
      Map<String, String> env, Path cwd, String name, Supplier<? extends Throwable> failure) {
    return StdioProber.create(
        env,
        cwd,
        ProbeOptions.defaults(),
        ProcessPermits.defaults(),
        new StdioProber.Checkpoints() {
          @Override
          public void beforeMeasuring(ServerDefinition server) {
            if (server.name().equals(name)) {
              sneakyThrow(failure.get());
            }
          }
        });
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
    throw (T) t;
  }

  /** Whether a process runs (a zombie does not). */
  public static boolean isRunning(ProcessHandle h) {
    return ProcessTree.isRunning(h);
  }

  /** The running descendants of this JVM. */
  public static List<ProcessHandle> runningDescendants() {
    return ProcessHandle.current().descendants().filter(ProcessTree::isRunning).toList();
  }
}
