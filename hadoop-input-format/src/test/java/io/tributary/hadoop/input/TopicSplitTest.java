package io.tributary.hadoop.input;

import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class TopicSplitTest {
    static Stream<TopicSplit> splits() {
        return Stream.of(
            new TopicSplit("orders", List.of(new OffsetRange(3, 100, 200)), "broker-1.example"),
            new TopicSplit("t", List.of(new OffsetRange(0, 0, 5), new OffsetRange(1, 7, 7), new OffsetRange(9, 1L << 40, (1L << 40) + 3)), ""),
            new TopicSplit("t", List.of(new OffsetRange(Integer.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE)), "h"),
            new TopicSplit("empty", List.of(), ""));
    }

    @ParameterizedTest
    @MethodSource("splits")
    void writableRoundTripKeepsEveryField(TopicSplit split) throws IOException {
        TopicSplit back = roundTrip(split, new TopicSplit());
        assertThat(back).isEqualTo(split);
        assertThat(back.topic()).isEqualTo(split.topic());
        assertThat(back.ranges()).isEqualTo(split.ranges());
        assertThat(back.host()).isEqualTo(split.host());
        assertThat(back.getLength()).isEqualTo(split.span());
        assertThat(back.getLocations()).isEqualTo(split.getLocations());
    }

    @Test
    void readFieldsReplacesEverythingOfAReusedInstance() throws IOException {
        TopicSplit reused = new TopicSplit("old", List.of(new OffsetRange(1, 1, 2)), "old-host");
        TopicSplit fresh = new TopicSplit("new", List.of(new OffsetRange(2, 5, 9)), "");
        assertThat(roundTrip(fresh, reused)).isEqualTo(fresh);
    }

    @Test
    void locationsAreTheLeaderHost() {
        assertThat(new TopicSplit("t", List.of(new OffsetRange(0, 0, 1)), "b1").getLocations()).containsExactly("b1");
        assertThat(new TopicSplit("t", List.of(new OffsetRange(0, 0, 1)), "").getLocations()).isEmpty();
    }

    @Test
    void rangesCannotBeChangedFromOutside() {
        TopicSplit split = new TopicSplit("t", List.of(new OffsetRange(0, 0, 1)), "");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> split.ranges().add(new OffsetRange(1, 0, 1)))
            .isInstanceOf(UnsupportedOperationException.class);
    }

    static <T extends Writable> T roundTrip(Writable written, T target) throws IOException {
        DataOutputBuffer out = new DataOutputBuffer();
        written.write(out);
        DataInputBuffer in = new DataInputBuffer();
        in.reset(out.getData(), out.getLength());
        target.readFields(in);
        assertThat(in.available()).as("bytes left unread").isZero();
        return target;
    }
}
