@NullMarked
package dev.kcshare.host.json;

import org.jspecify.annotations.NullMarked;
