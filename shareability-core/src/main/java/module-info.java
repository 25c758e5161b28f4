/**
 * The pure decision engine: evidence in, a verdict with its reasons out ({@code verdict}); the
 * handshake comparison ({@code handshake}); the two record files as values and codecs, the ledger's
 * in-memory state, cache validity and identity hashing ({@code records}); seeding, evidence
 * assembly and eligibility ({@code policy}); session-cost arithmetic ({@code cost}); and the JSON
 * text the record files are written in ({@code json}). No file, process, environment, clock or
 * thread access, and no runtime dependency beyond {@code java.base}: a gateway with its own IO
 * reads the files, hands their parsed JSON to the codecs and writes back what they encode. See
 * {@code docs/embedding.md}.
 *
 * <p>Each exported package has a {@code .internal} companion exported to {@code dev.kcshare.cli}
 * only: the pure parts that only kcshare's own passes, commands and config reader use (the attempts
 * file, selection and back-off, the evidence and verdict JSON forms, capture files, {@code /proc}
 * parsers, seeding of other gateways), so an embedder compiles against what the guide uses and no
 * more.
 */
@SuppressWarnings("module") // the qualified export names a module compiled after this one
module dev.kcshare.core {
  requires static org.jspecify; // nullness annotations: needed neither at run time nor by consumers

  exports dev.kcshare.core.verdict;
  exports dev.kcshare.core.handshake;
  exports dev.kcshare.core.records;
  exports dev.kcshare.core.policy;
  exports dev.kcshare.core.cost;
  exports dev.kcshare.core.json;
  // What only the command line and the host library use, not an API
  // (docs/embedding.md#what-is-exported); each is the .internal companion of the package it serves.
  exports dev.kcshare.core.verdict.internal to
      dev.kcshare.cli;
  exports dev.kcshare.core.handshake.internal to
      dev.kcshare.cli;
  exports dev.kcshare.core.records.internal to
      dev.kcshare.cli;
  exports dev.kcshare.core.policy.internal to
      dev.kcshare.cli;
  exports dev.kcshare.core.cost.internal to
      dev.kcshare.cli;
  exports dev.kcshare.core.json.internal to
      dev.kcshare.cli;
  // Text helpers for kcshare's own output; not an API.
  exports dev.kcshare.core.text to
      dev.kcshare.cli;
}
