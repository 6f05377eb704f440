package dev.petrel.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessLogWriterTest {
    @TempDir
    Path dir;

    @Test
    void everyLineIsWrittenOrCountedAsDroppedAndCloseWritesWhatIsQueued() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogWriter writer = new AccessLogWriter(file, 4); // a tiny queue: a burst overflows it
        int lines = 20_000;
        for (int i = 0; i < lines; i++) writer.record("line " + i);
        writer.close();
        long written = Files.readAllLines(file).size();
        assertThat(written + writer.dropped()).isEqualTo(lines);
        assertThat(written).isPositive();
    }

    @Test
    void appendsToAnExistingFile() throws Exception {
        Path file = dir.resolve("access.log");
        Files.writeString(file, "before\n");
        AccessLogWriter writer = new AccessLogWriter(file);
        writer.record("after");
        writer.close();
        assertThat(Files.readAllLines(file)).containsExactly("before", "after");
    }
}
