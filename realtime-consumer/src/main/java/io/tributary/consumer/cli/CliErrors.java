package io.tributary.consumer.cli;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns whatever a command threw into the one line the user reads on stderr. */
final class CliErrors {
    private CliErrors() {
    }

    /** The cause of a failed Kafka future, as a runtime exception fit to rethrow. */
    static RuntimeException unwrap(ExecutionException e) {
        Throwable cause = e.getCause();
        return cause instanceof RuntimeException runtime ? runtime : new KafkaException(cause);
    }

    /** One line, without the exception's class unless that is all there is to say. */
    static String describe(Throwable failure, String bootstrapServer) {
        Throwable root = unwrapWrappers(failure);
        String message;
        if (root instanceof CliException) {
            message = root.getMessage();
        } else if (root instanceof TimeoutException) {
            message = "no answer from the broker at " + bootstrapServer
                    + " in time (is it running and reachable?): " + root.getMessage();
        } else if (root instanceof TopicAuthorizationException denied && !denied.unauthorizedTopics().isEmpty()) {
            message = "not authorized to access topics: " + new TreeSet<>(denied.unauthorizedTopics())
                    + " (the ACLs of the --command-config user do not allow it)";
        } else if (root instanceof GroupAuthorizationException denied && denied.groupId() != null) {
            message = "not authorized to access group: " + denied.groupId()
                    + " (the ACLs of the --command-config user do not allow it)";
        } else if (root instanceof GroupIdNotFoundException) {
            message = "unknown group: " + root.getMessage();
        } else if (root instanceof ConfigException || root instanceof ApiException) {
            message = root.getMessage();
        } else if (root instanceof IOException || root instanceof UncheckedIOException) {
            message = "I/O error: " + root.getMessage();
        } else {
            message = root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
        }
        return message.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    private static Throwable unwrapWrappers(Throwable failure) {
        Throwable current = failure;
        while (current.getCause() != null && (current instanceof ExecutionException
                || current instanceof CompletionException || current instanceof UncheckedIOException
                || current.getClass() == KafkaException.class)) {
            current = current.getCause();
        }
        return current;
    }
}
