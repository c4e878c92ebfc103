/**
 * Tiered storage (KIP-405): a tiered log's remote part. {@link io.tributary.broker.log.remote.RemoteStorage} is the
 * SPI the remote-storage-hdfs module implements (found by {@link io.tributary.broker.log.remote.RemoteStorages} only
 * when {@code remote.log.storage.system.enable=true}, so this package never touches Hadoop);
 * {@link io.tributary.broker.log.remote.RemoteLogManager} runs each tiered partition's task (the leader's claim, copy
 * and expiry in {@link io.tributary.broker.log.remote.LeaderTasks}, a follower's refresh) and tells the log what its
 * remote part holds; {@link io.tributary.broker.log.remote.RemoteLogReader} serves fetches below the local start.
 *
 * <p>Threading: the tasks run on the copier pool, one per partition at a time; reads on the reader pool. The replica
 * layer calls in with leaderships and answers through {@link io.tributary.broker.log.remote.LeaderView}; this package
 * knows nothing of the network or ZooKeeper.
 */
package io.tributary.broker.log.remote;
