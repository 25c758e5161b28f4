@NullMarked
package dev.kcshare.core.text;

import org.jspecify.annotations.NullMarked;
