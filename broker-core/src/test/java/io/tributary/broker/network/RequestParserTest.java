package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.Test;

class RequestParserTest {
    private final RequestParser parser = new RequestParser();

    private static ByteBuffer frame(ApiKeys key, short version, ApiMessage body) {
        RequestHeader header = new RequestHeader(key, version, "test", 42);
        return RequestUtils.serialize(header.data(), header.headerVersion(), body, version);
    }

    @Test
    void parsesHeaderAndTypedBody() {
        RequestParser.Parsed parsed = parser.parse(frame(ApiKeys.METADATA, (short) 12,
                new MetadataRequestData().setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName("t")))));
        assertThat(parsed).isInstanceOfSatisfying(RequestParser.Parsed.Ok.class, ok -> {
            assertThat(ok.header().correlationId()).isEqualTo(42);
            assertThat(ok.header().clientId()).isEqualTo("test");
            assertThat(((MetadataRequest) ok.body()).data().topics()).extracting(MetadataRequestData.MetadataRequestTopic::name)
                    .containsExactly("t");
        });
    }

    @Test
    void unknownApiKeysAndVersionsAreNamedNotParsed() {
        ByteBuffer unknownKey = ByteBuffer.allocate(10).putShort((short) 4242).putShort((short) 0).putInt(7).putShort((short) -1).flip();
        assertThat(parser.parse(unknownKey)).isEqualTo(new RequestParser.Parsed.Unknown(7, (short) 4242, (short) 0, null));

        ByteBuffer unknownVersion = ByteBuffer.allocate(10).putShort(ApiKeys.FETCH.id).putShort((short) 999).putInt(8).putShort((short) -1).flip();
        assertThat(parser.parse(unknownVersion)).isEqualTo(new RequestParser.Parsed.Unknown(8, ApiKeys.FETCH.id, (short) 999, null));
    }

    @Test
    void theClientIdOfAnUnknownRequestIsReadForTheLogIfItIsThere() {
        byte[] id = "future-client".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer named = ByteBuffer.allocate(10 + id.length).putShort((short) 4242).putShort((short) 3).putInt(9)
                .putShort((short) id.length).put(id).flip();
        assertThat(parser.parse(named)).isEqualTo(new RequestParser.Parsed.Unknown(9, (short) 4242, (short) 3, "future-client"));

        ByteBuffer cutShort = ByteBuffer.allocate(12).putShort((short) 4242).putShort((short) 3).putInt(9).putShort((short) 50)
                .putShort((short) 0).flip();
        assertThat(((RequestParser.Parsed.Unknown) parser.parse(cutShort)).clientId()).isNull();
    }

    @Test
    void aTooNewApiVersionsRequestBecomesAVersionZeroBodyKeepingItsHeader() {
        short tooNew = (short) (ApiKeys.API_VERSIONS.latestVersion() + 3);
        RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, tooNew, "future", 5);
        ByteBuffer frame = RequestUtils.serialize(header.data(), header.headerVersion(), new ApiVersionsRequestData(),
                ApiKeys.API_VERSIONS.latestVersion());
        assertThat(parser.parse(frame)).isInstanceOfSatisfying(RequestParser.Parsed.Ok.class, ok -> {
            assertThat(ok.header().apiVersion()).isEqualTo(tooNew);
            assertThat(ok.header().correlationId()).isEqualTo(5);
            assertThat(ok.body().version()).isZero();
        });
    }

    @Test
    void malformedFramesAreRejected() {
        assertThatThrownBy(() -> parser.parse(ByteBuffer.allocate(5))).isInstanceOf(InvalidRequestException.class);

        ByteBuffer valid = frame(ApiKeys.METADATA, (short) 12, new MetadataRequestData().setTopics(List.of(
                new MetadataRequestData.MetadataRequestTopic().setName("topic"))));
        ByteBuffer truncated = ByteBuffer.wrap(valid.array(), 0, valid.limit() - 6).slice();
        assertThatThrownBy(() -> parser.parse(truncated)).isInstanceOf(InvalidRequestException.class);

        ByteBuffer garbage = ByteBuffer.allocate(40);
        garbage.putShort(ApiKeys.PRODUCE.id).putShort((short) 9).putInt(1).putShort((short) 30000).flip();
        garbage.limit(40);
        assertThatThrownBy(() -> parser.parse(garbage)).isInstanceOf(InvalidRequestException.class);
    }
}
