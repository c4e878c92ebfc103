package io.tributary.examples.pageviews;

import io.tributary.examples.SchemaFiles;
import io.tributary.hadoop.dataset.RecordConverter;
import io.tributary.hadoop.dataset.ValueDecodingException;
import io.tributary.hadoop.dataset.ValueFormat;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PageViewTest {

    @Test
    void jsonRoundTrip() {
        PageView view = new PageView("user-00042", "/products/tea", "(direct)", 1_764_489_600_000L);

        assertThat(view.toJson()).isEqualTo(
            "{\"user\":\"user-00042\",\"url\":\"/products/tea\",\"referrer\":\"(direct)\",\"timestamp\":1764489600000}");
        assertThat(PageView.fromJson(view.toJson())).isEqualTo(view);
    }

    @Test
    void somethingElseIsAClearError() {
        assertThatThrownBy(() -> PageView.fromJson("GET /index.html")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("not a page view: GET /index.html");
        assertThatThrownBy(() -> PageView.fromJson("{\"user\":\"u\"}")).hasMessageContaining("without a url");
    }

    /** The sink decodes the JSON with page-view.avsc; the JSON's timestamp is not a column of its own. */
    @Test
    void theSinkDecodesTheJsonIntoTypedColumns() {
        RecordConverter converter = RecordConverter.decoding(SchemaFiles.parse(PageViewPipeline.SCHEMA_RESOURCE), ValueFormat.JSON);
        PageView view = new PageView("user-00007", "/cart", "https://duckduckgo.com/", 1_764_489_600_123L);

        GenericRecord row = converter.convert(PageViewPipeline.TOPIC, 3, 17, view.timestamp(),
            view.user().getBytes(StandardCharsets.UTF_8), view.toJson().getBytes(StandardCharsets.UTF_8), new RecordHeaders());

        assertThat(row.get("user").toString()).isEqualTo("user-00007");
        assertThat(row.get("url").toString()).isEqualTo("/cart");
        assertThat(row.get("referrer").toString()).isEqualTo("https://duckduckgo.com/");
        assertThat(row.get("timestamp")).isEqualTo(view.timestamp());
        assertThatThrownBy(() -> converter.convert(PageViewPipeline.TOPIC, 3, 18, 0, null,
            "{\"user\":\"u\"}".getBytes(StandardCharsets.UTF_8), new RecordHeaders()))
            .isInstanceOf(ValueDecodingException.class);
    }

    @Test
    void generatorIsSeededAndSpreadsOverManyUsersAndEveryPage() {
        PageViewGenerator a = new PageViewGenerator(1, 1000);
        PageViewGenerator b = new PageViewGenerator(1, 1000);
        Set<String> users = new HashSet<>();
        Set<String> urls = new HashSet<>();
        for (int i = 0; i < 5000; i++) {
            PageView view = a.next(i);
            assertThat(b.next(i)).isEqualTo(view);
            users.add(view.user());
            urls.add(view.url());
        }
        assertThat(users).hasSizeGreaterThan(900);
        assertThat(urls).containsExactlyInAnyOrderElementsOf(PageViewGenerator.URLS);
    }
}
