/**
 * The policies around the verdict: how evidence is assembled from config and records ({@link
 * EvidenceAssembly}, {@link ServerFacts}, {@link DefinitionFacts}), seeding of the Kiro Crew config
 * ({@link Seeding}) and of mcphub's and 1MCP's files ({@link GatewaySeeding}), and bulk-stub
 * eligibility ({@link Eligibility}). All pure: the caller loads config and records, holds the locks
 * and writes the files. What only kcshare's passes and commands apply (selection, back-off) is
 * {@code dev.kcshare.core.policy.host}, exported to the command-line module alone.
 */
@NullMarked
package dev.kcshare.core.policy;

import org.jspecify.annotations.NullMarked;
