package io.tributary.broker.fetch;

import org.apache.kafka.common.Uuid;

/**
 * A partition as a fetch session names it: by topic id from Fetch v13 on (the name is then empty), by topic name
 * before (the id is then zero), exactly as the requests and responses of the session carry it.
 */
record SessionPartition(Uuid topicId, String topic, int partition) {
}
