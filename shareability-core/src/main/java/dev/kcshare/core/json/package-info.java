@NullMarked
package dev.kcshare.core.json;

import org.jspecify.annotations.NullMarked;
