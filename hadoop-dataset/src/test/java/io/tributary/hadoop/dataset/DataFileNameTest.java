package io.tributary.hadoop.dataset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataFileNameTest {
    @Test
    void formatsAndParsesBack() {
        DataFileName name = DataFileName.of("orders.v1-eu_x", 12, 100, 199);
        assertThat(name.fileName()).isEqualTo("orders.v1-eu_x+12+100+199.parquet");
        assertThat(DataFileName.parse(name.fileName())).contains(name);
        assertThat(name.nextOffset()).isEqualTo(200);
    }

    @Test
    void singleRecordFileHasEqualStartAndEnd() {
        assertThat(DataFileName.parse("t+0+7+7.parquet")).contains(DataFileName.of("t", 0, 7, 7));
    }

    @Test
    void largestOffsetsRoundTrip() {
        DataFileName name = DataFileName.of("t", Integer.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE - 1);
        assertThat(DataFileName.parse(name.fileName())).contains(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "t+0+5+4.parquet",                         // end before start
        "t+0+1+2.parquet.tmp",                     // temp file
        "t+0+1.parquet",                           // missing end
        "t+x+1+2.parquet",
        "t+0+1+99999999999999999999.parquet",      // offset overflows a long
        "t+0+1+2.avro",
        "_SUCCESS"
    })
    void ignoresAnythingElse(String fileName) {
        assertThat(DataFileName.parse(fileName)).isEmpty();
    }

    @Test
    void rejectsBadValues() {
        assertThatThrownBy(() -> DataFileName.of("a/b", 0, 0, 0)).hasMessageContaining("illegal topic");
        assertThatThrownBy(() -> DataFileName.of("t", -1, 0, 0)).hasMessageContaining("partition -1");
        assertThatThrownBy(() -> DataFileName.of("t", 0, 5, 4)).hasMessageContaining("5..4");
    }
}
