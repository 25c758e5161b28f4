package dev.kcshare.host.prober;

/**
 * Told about every server process a prober spawns and when its teardown is complete, so that a pass
 * can record what it has running ({@link SpawnRegistry}). Called from the prober's threads; must be
 * thread-safe and must not throw.
 */
public interface SpawnWatcher {
  /** Watches nothing. */
  SpawnWatcher NONE =
      new SpawnWatcher() {
        @Override
        public void spawned(ProcessHandle process, boolean ownGroup) {}

        @Override
        public void ended(ProcessHandle process) {}
      };

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
