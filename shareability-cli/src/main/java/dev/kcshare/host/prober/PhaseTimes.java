package dev.kcshare.host.prober;

import dev.kcshare.core.handshake.Era;
import dev.kcshare.core.text.HumanDuration;
import org.jspecify.annotations.Nullable;

/**
 * How long each phase of one spawned process took, in milliseconds, for {@code -v} output: spawn
 * (until the process started), initialize (until its initialize or server/discover answer),
 * tools/list (until the last page), exit (from the end of the exchange until the process was gone).
 * A phase that was not reached is null.
 *
 * @param spawnMillis starting the process
 * @param answerMillis from the start to the initialize (or server/discover) answer
 * @param listMillis from that answer to the last tools/list page
 * @param exitMillis from the end of the exchange until the process tree was torn down
 */
public record PhaseTimes(
    long spawnMillis,
    @Nullable Long answerMillis,
    @Nullable Long listMillis,
    @Nullable Long exitMillis) {

  /** {@code spawn 4 ms -> initialize 380 ms -> tools/list 22 ms -> exit 31 ms}. */
  public String describe(Era era) {
    StringBuilder b = new StringBuilder("spawn ").append(HumanDuration.millis(spawnMillis));
    b.append(" -> ").append(era == Era.MODERN ? "server/discover " : "initialize ");
    b.append(answerMillis == null ? "-" : HumanDuration.millis(answerMillis));
    if (answerMillis != null) {
      b.append(" -> tools/list ")
          .append(listMillis == null ? "-" : HumanDuration.millis(listMillis));
    }
    b.append(" -> exit ").append(exitMillis == null ? "-" : HumanDuration.millis(exitMillis));
    return b.toString();
  }
}
