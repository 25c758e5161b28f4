package dev.kcshare.core.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class ByteUnitsTest {
  @ParameterizedTest
  @CsvSource({
    "0, 0 B",
    "1023, 1023 B",
    "1024, 1.0 KiB",
    "1536, 1.5 KiB",
    "10240, 10 KiB",
    "1048064, 1.0 MiB",
    "88080384, 84 MiB",
    "8808038, 8.4 MiB",
    "10480000, 10 MiB",
    "10433331, 9.9 MiB",
    "3650722201, 3.4 GiB",
    "18253611008, 17 GiB",
    "9223372036854775807, 8.0 EiB"
  })
  void binaryUnits(long bytes, String text) {
    assertThat(ByteUnits.binary(bytes)).isEqualTo(text);
  }

  @Test
  void negativeIsRefused() {
    assertThatThrownBy(() -> ByteUnits.binary(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
