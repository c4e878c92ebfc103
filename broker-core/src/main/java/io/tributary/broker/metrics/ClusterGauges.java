package io.tributary.broker.metrics;

/** The cluster state this broker reports, computed when scraped (the controller package implements it). */
public interface ClusterGauges {
    /** Partitions this broker leads whose ISR is smaller than their replica list. */
    int underReplicatedPartitions();

    /** Partitions without a live leader, on the active controller; 0 on every other broker. */
    int offlinePartitions();

    /** Whether this broker is the active controller. */
    boolean activeController();
}
