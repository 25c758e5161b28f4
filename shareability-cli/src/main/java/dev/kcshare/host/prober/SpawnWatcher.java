package dev.kcshare.host.prober;

/**
 * The pass a prober spawns for: it hands out the pass's token every server carries in its
 * environment ({@code KCSHARE_PASS_TOKEN}), and is told about every server process spawned and when
 * its teardown is complete, so that a pass can record what it has running ({@link SpawnRegistry}).
 * Called from the prober's threads; must be thread-safe and must not throw.
 */
public interface SpawnWatcher {
  /**
   * Watches nothing. A prober given no other watcher makes each pre-flight a pass of its own, with
   * a token of its own swept when the pre-flight ends; this one's token is one per JVM, never
   * swept.
   */
  SpawnWatcher NONE =
      new SpawnWatcher() {
        @Override
        public String passToken() {
          return PassToken.ofThisJvm();
        }

        @Override
        public void spawned(ProcessHandle process, boolean ownGroup) {}

        @Override
        public void ended(ProcessHandle process) {}
      };

  /**
   * The token of the pass, which the server about to be spawned carries in its environment: the
   * same for every server of a pass, random, never shown.
   */
  String passToken();

  /**
   * A server process was started, before any message is sent to it.
   *
   * @param process the server (the direct child)
   * @param ownGroup whether it leads a process group of its own (its pid is the group id), so that
   *     the whole group belongs to it
   */
  void spawned(ProcessHandle process, boolean ownGroup);

  /** The teardown of {@code process} (and its tree) is complete. */
  void ended(ProcessHandle process);
}
