package io.tributary.broker.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;
import io.tributary.broker.api.SupportedApis;
import io.tributary.testkit.wire.RawConnection;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.params.provider.Arguments;

/** For tests that walk every version the broker advertises, one raw request at a time. */
public final class AdvertisedVersions {
    private AdvertisedVersions() {
    }

    /** One {@code (ApiKeys, short version)} argument pair per advertised version of each key. */
    public static Stream<Arguments> of(Collection<ApiKeys> keys) {
        List<Arguments> all = new ArrayList<>();
        for (ApiKeys key : keys) {
            SupportedApis.VersionRange range = SupportedApis.range(key).orElseThrow();
            for (short v = range.min(); v <= range.max(); v++) {
                all.add(Arguments.of(key, v));
            }
        }
        return all.stream();
    }

    /** Creates {@code topic} through auto-creation if needed and returns its id. */
    public static Uuid topicId(RawConnection raw, String topic) throws IOException {
        MetadataResponse metadata = (MetadataResponse) raw.request(ApiKeys.METADATA, (short) 12, new MetadataRequestData()
                .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName(topic))).setAllowAutoTopicCreation(true));
        return metadata.data().topics().find(topic).topicId();
    }
}
