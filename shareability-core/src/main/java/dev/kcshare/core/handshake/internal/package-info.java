/**
 * The raw side of the handshake comparison, exported to the command-line module alone: building an
 * answer from the JSON-RPC results a pre-flight received ({@link Answers}) and the capture files of
 * {@code --capture} and {@code kcshare preflight compare} ({@link Captures}). The comparison itself
 * is {@code dev.kcshare.core.handshake}.
 */
@NullMarked
package dev.kcshare.core.handshake.internal;

import org.jspecify.annotations.NullMarked;
