/**
 * Writing plain JSON values ({@code Map<String, ?>}, {@code List<?>}, {@code String}, {@code
 * Number}, {@code Boolean}, {@code null}) as text without recursion ({@link
 * dev.kcshare.core.json.JsonWriter}), and JSON kept as compact text to be written back as read
 * ({@link dev.kcshare.core.json.RawJson},
 * docs/formats.md#what-kcshare-keeps-when-it-rewrites-a-file).
 */
@NullMarked
package dev.kcshare.core.json;

import org.jspecify.annotations.NullMarked;
