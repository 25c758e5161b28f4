package dev.kcshare.core.records;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A record file's decoder, fed the document's top level member by member so a large file is never
 * held as one tree: the members of the one streamed object ({@link #streams}) come entry by entry
 * ({@link #entry}), every other top-level member whole ({@link #member}). Feeding never throws; not
 * thread-safe.
 *
 * @param <T> what the document decodes to
 */
public interface RecordDecoder<T> {
  /** Whether {@code member}'s object value is fed entry by entry. */
  boolean streams(String member);

  /** A top-level member that is not streamed, or a streamed one whose value is not an object. */
  void member(String name, @Nullable Object value);

  /** The streamed member {@code member} begins (its value is an object). */
  void begin(String member);

  /** One entry of the streamed member. */
  void entry(@Nullable Object key, @Nullable Object value);

  /** The document's value is not an object. */
  void root(@Nullable Object value);

  /** What was fed, decoded. */
  T finish();

  /** Feeds an already parsed document to {@code decoder}, as a streaming reader would. */
  static void feed(@Nullable Object root, RecordDecoder<?> decoder) {
    if (!(root instanceof Map<?, ?> top)) {
      decoder.root(root);
      return;
    }
    for (Map.Entry<?, ?> member : top.entrySet()) {
      if (!(member.getKey() instanceof String name)) {
        continue;
      }
      if (decoder.streams(name) && member.getValue() instanceof Map<?, ?> entries) {
        decoder.begin(name);
        for (Map.Entry<?, ?> entry : entries.entrySet()) {
          decoder.entry(entry.getKey(), entry.getValue());
        }
      } else {
        decoder.member(name, member.getValue());
      }
    }
  }
}
