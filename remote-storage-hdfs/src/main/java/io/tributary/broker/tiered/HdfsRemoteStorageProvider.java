package io.tributary.broker.tiered;

import java.io.IOException;
import io.tributary.broker.log.remote.RemoteLogConfig;
import io.tributary.broker.log.remote.RemoteStorage;
import io.tributary.broker.log.remote.RemoteStorageProvider;

/** Found by the broker through {@link java.util.ServiceLoader}: the remote storage at {@code remote.log.storage.hdfs.uri}. */
public final class HdfsRemoteStorageProvider implements RemoteStorageProvider {
    @Override
    public RemoteStorage open(RemoteLogConfig config) throws IOException {
        return HdfsRemoteStorage.open(config.hdfsUri());
    }
}
