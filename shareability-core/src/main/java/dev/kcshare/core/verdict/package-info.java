@NullMarked
package dev.kcshare.core.verdict;

import org.jspecify.annotations.NullMarked;
