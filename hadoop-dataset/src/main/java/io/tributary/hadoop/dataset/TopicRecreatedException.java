package io.tributary.hadoop.dataset;

import java.io.IOException;

/**
 * The dataset holds offsets of an earlier topic of the same name: the topic was deleted and
 * created again, its offsets start over, and the ledger's entries say nothing about it. Writing
 * on would skip the new topic's records below them.
 */
public final class TopicRecreatedException extends IOException {
    private static final long serialVersionUID = 1L;

    TopicRecreatedException(String topic, String datasetTopicId, String topicId, DatasetLayout layout) {
        super("the dataset's offsets of " + topic + " are those of the topic with id " + datasetTopicId + ", but " + topic
            + " now has id " + topicId + " (it was deleted and created again, and its offsets start over): nothing was "
            + "written; load it into a new output directory, or move the " + topic + " folder and "
            + layout.ledgerDir(topic) + " away to start over");
    }
}
