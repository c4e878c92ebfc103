package io.tributary.broker.tiered;

import java.util.NavigableMap;
import java.util.TreeMap;
import io.tributary.broker.log.AbortedTxn;
import io.tributary.broker.log.remote.RemoteLogMetadata;
import io.tributary.broker.log.remote.RemoteSegment;
import io.tributary.hadoop.tiered.AbortedTransaction;
import io.tributary.hadoop.tiered.ManifestSegment;
import io.tributary.hadoop.tiered.PartitionManifest;
import org.apache.kafka.common.TopicPartition;

/** The broker's {@link RemoteLogMetadata} as the {@link PartitionManifest} on the FileSystem holds it, and back. */
final class ManifestMapping {
    private ManifestMapping() {
    }

    static PartitionManifest toManifest(TopicPartition tp, RemoteLogMetadata metadata) {
        return new PartitionManifest(tp.topic(), tp.partition(), metadata.version(), metadata.leaderEpoch(),
                metadata.logStartOffset(), metadata.endOffset(),
                metadata.segments().stream().map(ManifestMapping::toManifest).toList(),
                metadata.abortedAcrossEnd().stream().map(t -> new AbortedTransaction(t.producerId(), t.firstOffset(),
                        t.lastOffset(), t.lastStableOffset())).toList());
    }

    static ManifestSegment toManifest(RemoteSegment s) {
        return new ManifestSegment(s.baseOffset(), s.startOffset(), s.endOffset(), s.sizeInBytes(), s.maxTimestamp(),
                s.leaderEpochs(), s.location(), s.txnIndex(), s.producerSnapshot());
    }

    static RemoteLogMetadata toMetadata(PartitionManifest manifest) {
        return new RemoteLogMetadata(manifest.version(), manifest.leaderEpoch(), manifest.logStartOffset(),
                manifest.endOffset(), manifest.segments().stream().map(ManifestMapping::toSegment).toList(),
                manifest.abortedAcrossEnd().stream().map(t -> new AbortedTxn(t.producerId(), t.firstOffset(), t.lastOffset(),
                        t.lastStableOffset())).toList());
    }

    static RemoteSegment toSegment(ManifestSegment s) {
        NavigableMap<Integer, Long> epochs = new TreeMap<>(s.leaderEpochs());
        return new RemoteSegment(s.baseOffset(), s.startOffset(), s.endOffset(), s.sizeInBytes(), s.maxTimestamp(), epochs,
                s.location(), s.txnIndex(), s.producerSnapshot());
    }
}
