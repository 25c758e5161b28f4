/** A planted impure class that proves the core purity rules catch violations. */
@NullMarked
package dev.kcshare.archfixture;

import org.jspecify.annotations.NullMarked;
