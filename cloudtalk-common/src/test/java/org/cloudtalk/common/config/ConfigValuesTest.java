package org.cloudtalk.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigValuesTest {
    @TempDir
    Path dir;

    @Test
    void readsAPropertiesFileWithTrimmedValues() throws Exception {
        Path file = Files.writeString(dir.resolve("server.properties"), "\uFEFFport = 7480 \n# a comment\nbind=::1\n");

        assertThat(ConfigValues.read(file, "--config"))
                .containsEntry("port", "7480")
                .containsEntry("bind", "::1");
    }

    @Test
    void aNumberIsAsciiDigitsWithAnOptionalMinusWithinItsRange() throws Exception {
        assertThat(ConfigValues.parse("k", "42", 0, 100)).isEqualTo(42);
        assertThat(ConfigValues.parse("k", "-3", -5, 5)).isEqualTo(-3);
        for (String value : new String[] {"+5", "\u0661\u0662", "5 ", "0x10", "1_000", "", "-"}) {
            assertThatThrownBy(() -> ConfigValues.parse("k", value, 0, 100))
                    .as(value)
                    .isInstanceOf(ConfigException.class)
                    .hasMessage("Invalid value " + value + " for k: not a whole number");
        }
        assertThatThrownBy(() -> ConfigValues.parse("k", "99999999999999999999", 0, 100))
                .hasMessage("Invalid value 99999999999999999999 for k: not a whole number");
        assertThatThrownBy(() -> ConfigValues.parse("k", "101", 0, 100))
                .hasMessage("Invalid value 101 for k: must be between 0 and 100");
    }

    @Test
    void aFileThatIsNotAConfigurationSaysWhy() throws Exception {
        Path latin = Files.write(
                dir.resolve("latin.properties"), "a=1\nb=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> ConfigValues.read(latin, "--config"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value " + latin + " for --config: line 2: not valid UTF-8 text");
        // Endless: read as a whole, it filled the heap (a stack trace instead of exit 78).
        assertThatThrownBy(() -> ConfigValues.read(Path.of("/dev/zero"), "--config"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value /dev/zero for --config: larger than 1 MB");
        Path missing = dir.resolve("missing.properties");
        assertThatThrownBy(() -> ConfigValues.read(missing, "--config"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value " + missing + " for --config: cannot read it (no such file)");
    }
}
