package dev.kcshare.api;

/** What {@link dev.kcshare.embed.LedgerWriter#record} did with one observation. */
public enum RecordResult {
  /** The code is new for this server and launch identity: the next flush writes it. */
  RECORDED,
  /**
   * The code was already recorded for this server and launch identity; the observation still counts
   * (its count and last-seen time move on).
   */
  ALREADY_RECORDED,
  /**
   * Nothing was stored: an empty name, an unknown hazard code, or a name or launch identity longer
   * than 65,536 characters. The writer's next flush logs each kind of refusal once.
   */
  REFUSED
}
