package io.tributary.broker.log.remote;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The broker keys of tiered storage besides {@code remote.log.storage.system.enable} (a log key): where the remote
 * storage is and how to load it, and how the {@link RemoteLogManager} works. Kafka's names, except the storage's URI.
 */
public record RemoteLogConfig(String hdfsUri, String storageClassPath, long taskIntervalMs, int copierThreads,
                              int readerThreads, int fetchMaxWaitMs) {
    public static final String REMOTE_LOG_STORAGE_HDFS_URI = "remote.log.storage.hdfs.uri";
    public static final String REMOTE_LOG_STORAGE_MANAGER_CLASS_PATH = "remote.log.storage.manager.class.path";
    public static final String REMOTE_LOG_MANAGER_TASK_INTERVAL_MS = "remote.log.manager.task.interval.ms";
    public static final String REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE = "remote.log.manager.copier.thread.pool.size";
    public static final String REMOTE_LOG_READER_THREADS = "remote.log.reader.threads";
    public static final String REMOTE_FETCH_MAX_WAIT_MS = "remote.fetch.max.wait.ms";

    /** Adds the keys to {@code definition}. */
    public static ConfigDef define(ConfigDef definition) {
        return definition
                .define(REMOTE_LOG_STORAGE_HDFS_URI, Type.STRING, "", Importance.MEDIUM,
                        "Where tiered logs keep their remote part: a Hadoop FileSystem URI (hdfs://namenode:8020/path, "
                                + "file:///path, ...), a folder per partition below it. Hadoop's own settings (core-site.xml, "
                                + "hdfs-site.xml) come from HADOOP_CONF_DIR on the class path. Required with "
                                + "remote.log.storage.system.enable=true.")
                .define(REMOTE_LOG_STORAGE_MANAGER_CLASS_PATH, Type.STRING, "", Importance.LOW,
                        "Class path of the remote storage implementation (the remote-storage-hdfs module's jar and its "
                                + "lib/*), loaded by a class loader of its own only when remote.log.storage.system.enable=true; "
                                + "entries separated by ':', a trailing '*' takes every jar of a folder. Empty: the broker's own "
                                + "class path. bin/tributary-server sets it to the built module (and HADOOP_CONF_DIR) when tiered "
                                + "storage is on and it is not set.")
                .define(REMOTE_LOG_MANAGER_TASK_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.LOW,
                        "How often each tiered partition is looked at: its leader copies closed segments up to the last "
                                + "stable offset and expires remote segments by retention.ms/bytes; its followers re-read what "
                                + "the remote part holds (so their local retention may delete what is copied).")
                .define(REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE, Type.INT, 10, Range.atLeast(1), Importance.MEDIUM,
                        "Threads that run the tiered partitions' tasks (copies, remote retention, followers' refreshes).")
                .define(REMOTE_LOG_READER_THREADS, Type.INT, 10, Range.atLeast(1), Importance.MEDIUM,
                        "Threads that serve fetches below the local log start from remote storage, apart from the request "
                                + "handlers, so a slow remote read never holds up a local fetch.")
                .define(REMOTE_FETCH_MAX_WAIT_MS, Type.INT, 500, Range.atLeast(1), Importance.MEDIUM,
                        "How long a fetch that reads from remote storage waits for it before it is answered without those "
                                + "records (the consumer asks again).");
    }

    /** The settings from parsed broker values. */
    public static RemoteLogConfig from(Map<String, ?> parsed) {
        return new RemoteLogConfig((String) parsed.get(REMOTE_LOG_STORAGE_HDFS_URI),
                (String) parsed.get(REMOTE_LOG_STORAGE_MANAGER_CLASS_PATH),
                (Long) parsed.get(REMOTE_LOG_MANAGER_TASK_INTERVAL_MS),
                (Integer) parsed.get(REMOTE_LOG_MANAGER_COPIER_THREAD_POOL_SIZE),
                (Integer) parsed.get(REMOTE_LOG_READER_THREADS),
                (Integer) parsed.get(REMOTE_FETCH_MAX_WAIT_MS));
    }
}
