package dev.kcshare.host.evaluation;

import dev.kcshare.embed.ConfiguredServer;
import dev.kcshare.embed.PassOptions;
import dev.kcshare.embed.Shareability;
import java.util.Objects;

/**
 * What the commands of this module need of the embedding facade beyond its exported API: the head
 * start of a named pass, which {@code Main} begins before the command line is parsed
 * (docs/performance.md). Registered by the facade when its class is initialised; the package is not
 * exported, so an embedder never sees it.
 */
public final class FacadeAccess {
  /** The facade's side. */
  public interface Hooks {
    /**
     * Begins a pass of {@link PassOptions.Kind#NAMED} over the one server {@code server} on {@code
     * facade} ({@link EvaluationRunner#startEarly}); {@link Shareability#pass} of exactly that
     * server and those options continues it, and a pass of anything else, or the facade's close,
     * ends it.
     *
     * @return whether it was begun (false, having spawned nothing, when it would not spawn now)
     * @throws java.io.IOException when the lock cannot be taken
     * @throws InterruptedException when interrupted
     */
    boolean startEarly(Shareability facade, ConfiguredServer server, PassOptions options)
        throws java.io.IOException, InterruptedException;
  }

  private static volatile Hooks hooks;

  private FacadeAccess() {}

  /**
   * Called once, by the facade.
   *
   * @param facadeHooks the facade's side
   */
  public static void register(Hooks facadeHooks) {
    hooks = Objects.requireNonNull(facadeHooks, "hooks");
  }

  /**
   * The facade's side, initialising the facade's class first.
   *
   * @return the hooks
   */
  public static Hooks hooks() {
    Hooks h = hooks;
    if (h == null) {
      try {
        Class.forName(Shareability.class.getName(), true, Shareability.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("cannot initialise the facade", e);
      }
      h = Objects.requireNonNull(hooks, "the facade did not register its hooks");
    }
    return h;
  }
}
