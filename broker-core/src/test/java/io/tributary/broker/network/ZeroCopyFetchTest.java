package io.tributary.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.SendBuilder;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A fetch response whose records are a file slice reaches the socket through transferTo, not the heap. */
class ZeroCopyFetchTest {
    /** Counts what goes through the file-to-socket path. */
    private static final class Recording implements TransferableChannel {
        private final SocketChannelTransfer target;
        private long transferred;

        Recording(SocketChannelTransfer target) {
            this.target = target;
        }

        @Override
        public long transferFrom(FileChannel fileChannel, long position, long count) throws IOException {
            long written = target.transferFrom(fileChannel, position, count);
            transferred += written;
            return written;
        }

        @Override
        public boolean hasPendingWrites() {
            return false;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            return target.write(srcs, offset, length);
        }

        @Override
        public long write(ByteBuffer[] srcs) throws IOException {
            return target.write(srcs);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return target.write(src);
        }

        @Override
        public boolean isOpen() {
            return target.isOpen();
        }

        @Override
        public void close() throws IOException {
            target.close();
        }
    }

    @Test
    @Timeout(30) // the blocking socket loops below would hang on a regression instead of failing
    void fileRecordsGoOutWithTransferTo(@TempDir Path dir) throws Exception {
        MemoryRecords batch = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("k".getBytes(), new byte[5000]));
        try (FileRecords file = FileRecords.open(dir.resolve("00000000000000000000.log").toFile());
             ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            file.append(batch);
            FetchResponseData data = new FetchResponseData().setResponses(List.of(new FetchResponseData.FetchableTopicResponse()
                    .setTopic("t").setPartitions(List.of(new FetchResponseData.PartitionData().setPartitionIndex(0)
                            .setHighWatermark(1).setLastStableOffset(1).setRecords(file.slice(0, file.sizeInBytes()))))));
            short version = 12;
            RequestHeader header = new RequestHeader(ApiKeys.FETCH, version, "test", 3);
            Send send = SendBuilder.buildResponseSend(header.toResponseHeader(), data, version);

            Recording channel = new Recording(new SocketChannelTransfer(accepted));
            while (!send.completed()) {
                send.writeTo(channel);
            }
            assertThat(channel.transferred).isEqualTo(file.sizeInBytes());

            ByteBuffer received = ByteBuffer.allocate((int) send.size());
            while (received.hasRemaining()) {
                client.read(received);
            }
            received.flip();
            assertThat(received.getInt()).isEqualTo(received.remaining());
            FetchResponse parsed = (FetchResponse) AbstractResponse.parseResponse(received.slice(), header);
            assertThat(FetchResponse.recordsSize(parsed.data().responses().get(0).partitions().get(0))).isEqualTo(batch.sizeInBytes());
        }
    }
}
