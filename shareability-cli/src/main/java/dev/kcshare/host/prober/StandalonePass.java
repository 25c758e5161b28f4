package dev.kcshare.host.prober;

import java.util.List;
import java.util.Map;

/**
 * A pre-flight run outside any pass (no {@link SpawnRegistry}: {@code kcshare preflight}): a pass
 * of its own, with a token of its own that its servers carry, and when it closes every process of
 * the effective user still carrying the token is ended, as at the end of a recorded pass. Nothing
 * is recorded.
 */
final class StandalonePass implements SpawnWatcher, AutoCloseable {
  private final String token = PassToken.generate();
  private volatile boolean handedOut;

  @Override
  public String passToken() {
    handedOut = true;
    return token;
  }

  @Override
  public void spawned(ProcessHandle process, boolean ownGroup) {}

  @Override
  public void ended(ProcessHandle process) {}

  @Override
  public void close() {
    OwnProcesses own = handedOut ? OwnProcesses.system() : null;
    if (own != null) {
      // No process older than this JVM can carry a token it made.
      long since = own.proc().startTime(ProcessHandle.current().pid()).orElse(-1);
      own.end(List.of(), Map.of(token, since));
    }
  }
}
