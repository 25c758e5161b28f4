/** Test-only helpers shared by the core's tests. */
@NullMarked
package dev.kcshare.core.testing;

import org.jspecify.annotations.NullMarked;
