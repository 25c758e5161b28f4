/** JMH benchmarks of the core, compiled only with {@code -Pbench}. */
@NullMarked
package dev.kcshare.core.bench;

import org.jspecify.annotations.NullMarked;
