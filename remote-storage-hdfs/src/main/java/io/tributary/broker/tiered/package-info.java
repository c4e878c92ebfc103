/**
 * The broker's tiered storage on any Hadoop FileSystem: {@link io.tributary.broker.tiered.HdfsRemoteStorage}
 * implements broker-core's {@code RemoteStorage} in the layout and manifest format of
 * {@code io.tributary.hadoop.tiered} (hadoop-dataset), the contract the loader's tiered splits read.
 * {@link io.tributary.broker.tiered.HdfsRemoteStorageProvider} is what the broker's {@code ServiceLoader} finds. Loaded
 * only when {@code remote.log.storage.system.enable=true}, possibly in a class loader of its own. Thread-safe.
 */
package io.tributary.broker.tiered;
