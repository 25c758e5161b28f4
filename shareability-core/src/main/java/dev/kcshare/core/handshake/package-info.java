/**
 * The pre-flight handshake as pure values: one identity's normalised answer ({@link
 * dev.kcshare.core.handshake.Answer}), the facet-by-facet comparison of two answers ({@link
 * dev.kcshare.core.handshake.HandshakeComparison}) and its outcome ({@link
 * dev.kcshare.core.handshake.PreflightResult}), the era a pre-flight measured and how it got there
 * ({@link dev.kcshare.core.handshake.Era}, {@link dev.kcshare.core.handshake.EraBasis}, {@link
 * dev.kcshare.core.handshake.EraChoice}), and the isolation self-test's outcome ({@link
 * dev.kcshare.core.handshake.SelfTest}) (docs/design.md#facets-and-decision). Spawning the server
 * and talking to it are the caller's.
 */
@NullMarked
package dev.kcshare.core.handshake;

import org.jspecify.annotations.NullMarked;
