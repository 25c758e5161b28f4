package dev.kcshare.core.records;

import dev.kcshare.core.json.internal.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** How the record codecs decode without throwing: a failure becomes one note at the document. */
final class Tolerant {
  private Tolerant() {}

  static <T> T decode(Function<List<Dropped>, T> decode, Function<List<Dropped>, T> empty) {
    return decode(decode, empty, new ArrayList<>());
  }

  static <T> T decode(
      Function<List<Dropped>, T> decode, Function<List<Dropped>, T> empty, List<Dropped> notes) {
    return Values.tolerantly(decode, empty, notes, why -> new Dropped("", why));
  }
}
