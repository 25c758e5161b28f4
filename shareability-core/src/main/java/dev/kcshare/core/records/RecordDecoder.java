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
  /**
   * Whether {@code member}'s object value is fed entry by entry.
   *
   * @param member the name of a top-level member
   * @return true if its object value is fed through {@link #begin} and {@link #entry}
   */
  boolean streams(String member);

  /**
   * A top-level member that is not streamed, or a streamed one whose value is not an object.
   *
   * @param name the member's name
   * @param value the member's whole parsed value
   */
  void member(String name, @Nullable Object value);

  /**
   * The streamed member {@code member} begins (its value is an object).
   *
   * @param member the streamed member's name
   */
  void begin(String member);

  /**
   * One entry of the streamed member.
   *
   * @param key the entry's key, as the reader produced it
   * @param value the entry's parsed value
   */
  void entry(@Nullable Object key, @Nullable Object value);

  /**
   * The document's value is not an object.
   *
   * @param value the document's parsed value
   */
  void root(@Nullable Object value);

  /**
   * What was fed, decoded.
   *
   * @return the decoded document
   */
  T finish();

  /**
   * Feeds an already parsed document to {@code decoder}, as a streaming reader would.
   *
   * @param root the parsed document, or null
   * @param decoder the decoder to feed; {@link #finish} is left to the caller
   */
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
