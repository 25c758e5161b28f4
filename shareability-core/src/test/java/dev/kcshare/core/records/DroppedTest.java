package dev.kcshare.core.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class DroppedTest {
  @Test
  void aDecoderThatThrowsYieldsTheEmptyResultAndANoteInsteadOfAnException() {
    List<Dropped> result =
        Tolerant.decode(
            notes -> {
              notes.add(new Dropped("servers/a", "not an object; skipped"));
              throw new ClassCastException("boom");
            },
            notes -> new ArrayList<>(notes));
    assertThat(result)
        .containsExactly(
            new Dropped("servers/a", "not an object; skipped"),
            new Dropped("", "unexpected value (ClassCastException); ignored"));
  }

  @Test
  void aDecoderThatReturnsIsTakenAsItIs() {
    assertThat(Tolerant.<String>decode(notes -> "decoded", notes -> "empty")).isEqualTo("decoded");
  }

  @Test
  void bothCodecsReadANonObjectRootAsEmptyWithANote() {
    assertThat(LedgerCodec.decode(List.of(1, 2)).dropped()).hasSize(1);
    assertThat(CacheCodec.decode("text").dropped()).hasSize(1);
  }
}
