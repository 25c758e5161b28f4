package dev.kcshare.host.prober;

/**
 * The JVM shutdown hook that tears down every running server when kcshare is interrupted mid-pass
 * ({@code kcshare-probe-shutdown}). It is installed by the first spawn; an embedder's facade
 * removes it when the last one closes, so nothing of kcshare's stays registered with the JVM.
 */
public final class ProbeShutdown {
  private ProbeShutdown() {}

  /**
   * Removes the hook when no server is running or starting; the next spawn installs it again.
   *
   * @return true if no hook is installed afterwards
   */
  public static boolean releaseIfIdle() {
    return ServerProcess.removeShutdownHookIfIdle();
  }

  /**
   * Whether the hook is installed now.
   *
   * @return true while it is registered with the JVM
   */
  public static boolean isInstalled() {
    return ServerProcess.shutdownHook() != null;
  }
}
