@NullMarked
package dev.kcshare.core.records;

import org.jspecify.annotations.NullMarked;
