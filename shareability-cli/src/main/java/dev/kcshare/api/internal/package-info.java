/**
 * The implementations of the result interfaces of {@code dev.kcshare.api}: records the library and
 * the facade construct and an embedder only reads through those interfaces, so a result can gain a
 * member without breaking a caller. Not exported; it imports {@code dev.kcshare.api} and the core,
 * and {@code dev.kcshare.api} never imports it (docs/design.md#layers).
 */
@NullMarked
package dev.kcshare.api.internal;

import org.jspecify.annotations.NullMarked;
