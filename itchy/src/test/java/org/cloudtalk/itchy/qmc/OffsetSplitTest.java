package org.cloudtalk.itchy.qmc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.cloudtalk.itchy.qmc.IncrementInputFormat.OffsetSplit;
import org.junit.jupiter.api.Test;

class OffsetSplitTest {
    private static OffsetSplit.Part part(String file, long start, String host, long first, int records) {
        return new OffsetSplit.Part(
                new Path("/base/" + file), start, 1000, new String[] {host}, new RelevantOffsets.Slice(first, records));
    }

    @Test
    void groupsPartsIntoEvenTasksOfAboutTheGivenRecordsInHostOrder() {
        List<OffsetSplit.Part> parts = new ArrayList<>();
        for (int file = 0; file < 10; file++) {
            parts.add(part("f" + file, 0, file % 2 == 0 ? "h1" : "h2", file * 100L, 100));
        }
        List<OffsetSplit> splits = OffsetSplit.group(parts, 250);

        // 1,000 records at 250 per task: four tasks of five files' worth at most, every part in exactly one.
        assertThat(splits).hasSize(4);
        assertThat(splits.stream().mapToLong(OffsetSplit::records).sum()).isEqualTo(1000);
        assertThat(splits).allSatisfy(split -> assertThat(split.records()).isBetween(200L, 300L));
        // h1's files first, then h2's: here each task's parts sit on one host, which it names.
        assertThat(splits.get(0).getLocations()).containsExactly("h1");
        assertThat(splits.get(3).getLocations()).containsExactly("h2");
        List<String> files = new ArrayList<>();
        for (OffsetSplit split : splits) {
            for (int part = 0; part < split.parts(); part++) {
                files.add(split.part(part).getPath().getName());
            }
        }
        assertThat(files).containsExactly("f0", "f2", "f4", "f6", "f8", "f1", "f3", "f5", "f7", "f9");
    }

    @Test
    void aTaskPerPartAtMostAndOneTaskForFewRecords() {
        List<OffsetSplit.Part> parts = List.of(part("a", 0, "h", 0, 5), part("a", 1000, "h", 5, 7));

        assertThat(OffsetSplit.group(parts, 1)).hasSize(2);
        assertThat(OffsetSplit.group(parts, 1_000_000)).singleElement().satisfies(split -> {
            assertThat(split.parts()).isEqualTo(2);
            assertThat(split.records()).isEqualTo(12);
            assertThat(split.getLength()).isEqualTo(2000);
        });
        assertThat(OffsetSplit.group(List.of(), 10)).isEmpty();
        assertThat(new OffsetSplit()).hasToString("no parts of base files");
    }

    @Test
    void aTaskGetsItsPartsAsSplitsOfTheirOwnAfterSerialization() throws Exception {
        OffsetSplit split = OffsetSplit.group(List.of(part("a", 0, "h", 0, 5), part("b", 4096, "h", 5, 7)), 100)
                .get(0);
        DataOutputBuffer out = new DataOutputBuffer();
        split.write(out);
        DataInputBuffer in = new DataInputBuffer();
        in.reset(out.getData(), out.getLength());
        OffsetSplit read = new OffsetSplit();
        read.readFields(in);

        assertThat(read.parts()).isEqualTo(2);
        FileSplit second = read.part(1);
        assertThat(second.getPath()).isEqualTo(new Path("/base/b"));
        assertThat(second.getStart()).isEqualTo(4096);
        assertThat(second.getLength()).isEqualTo(1000);
        assertThat(read.at(1).slice()).isEqualTo(new RelevantOffsets.Slice(5, 7));
        assertThat(read.records()).isEqualTo(12);
    }
}
