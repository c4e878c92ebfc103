package io.tributary.broker.log.remote;

import java.io.IOException;

/**
 * Makes the broker's {@link RemoteStorage}: found with {@link java.util.ServiceLoader} when
 * {@code remote.log.storage.system.enable=true} (see {@link RemoteStorages#load}).
 */
public interface RemoteStorageProvider {

    /**
     * Opens the remote storage the broker settings name.
     *
     * @param config the broker's tiered-storage settings (the storage's URI among them)
     */
    RemoteStorage open(RemoteLogConfig config) throws IOException;
}
