package io.tributary.sink;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The ids (KIP-516) of topics as the brokers know them, to tell a topic from one deleted and created again under its name. */
interface TopicIds {
    /** Knows no id: nothing is checked (tests without brokers). */
    TopicIds UNKNOWN = topics -> Map.of();

    /** The id of each of {@code topics} the brokers have one for. */
    Map<String, String> of(Set<String> topics) throws IOException;

    /** Asks with DescribeTopics. */
    static TopicIds askingBrokers(Admin admin) {
        return topics -> {
            try {
                Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS);
                Map<String, String> ids = new TreeMap<>();
                described.forEach((topic, d) -> {
                    if (d.topicId() != null && !Uuid.ZERO_UUID.equals(d.topicId())) {
                        ids.put(topic, d.topicId().toString());
                    }
                });
                return ids;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while describing " + topics);
            } catch (ExecutionException | TimeoutException e) {
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                throw new IOException("cannot describe " + topics + " to learn their topic ids: " + cause, cause);
            }
        };
    }
}
