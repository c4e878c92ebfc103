package io.tributary.broker.txn;

import org.apache.kafka.common.protocol.Errors;

/**
 * Kafka's rules for an EndTxn of transaction version 2 (v5+, KIP-890 part 2), from the transaction's state alone.
 * The request's epoch is the current one, or one lower for a retry of an EndTxn that was carried out (or, after a
 * rotation, the last epoch of the previous producer id). An abort with no transaction open (Empty, or one just
 * completed) still moves the producer to its next epoch; a commit with none is INVALID_TXN_STATE.
 */
final class EpochBumpingEnd {
    /** What the coordinator does with the request. */
    sealed interface Outcome permits Refuse, AnswerAsBefore, Decide {
    }

    /** Answers the error; nothing changes. */
    record Refuse(Errors error) implements Outcome {
    }

    /** A retry of an EndTxn carried out: answered the producer id and epoch it was answered then (the current ones). */
    record AnswerAsBefore() implements Outcome {
    }

    /** Writes the decision one epoch higher. */
    record Decide(boolean commit) implements Outcome {
    }

    private EpochBumpingEnd() {
    }

    /** Caller holds {@code txn}'s monitor. */
    static Outcome of(TransactionMetadata txn, long producerId, short producerEpoch, boolean commit) {
        boolean complete = txn.state == TransactionState.COMPLETE_COMMIT || txn.state == TransactionState.COMPLETE_ABORT;
        boolean retryAfterBump = producerId == txn.producerId && producerEpoch + 1 == txn.producerEpoch;
        boolean retryAfterRotation = complete && producerId == txn.previousProducerId
                && producerEpoch == Short.MAX_VALUE - 1 && txn.producerEpoch == 0;
        boolean current = producerId == txn.producerId && producerEpoch == txn.producerEpoch;
        if (producerId != txn.producerId && !retryAfterRotation) {
            return new Refuse(Errors.INVALID_PRODUCER_ID_MAPPING);
        }
        boolean validEpoch = switch (txn.state) {
            case PREPARE_COMMIT, PREPARE_ABORT -> retryAfterBump;
            case COMPLETE_COMMIT, COMPLETE_ABORT -> retryAfterBump || retryAfterRotation || current;
            default -> current;
        };
        if (!validEpoch) {
            return new Refuse(Errors.PRODUCER_FENCED);
        }
        if (txn.pendingWrite) {
            return new Refuse(Errors.CONCURRENT_TRANSACTIONS);
        }
        boolean retry = retryAfterBump || retryAfterRotation;
        return switch (txn.state) {
            case ONGOING -> new Decide(commit);
            case PREPARE_COMMIT -> new Refuse(commit ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE);
            case PREPARE_ABORT -> new Refuse(commit ? Errors.INVALID_TXN_STATE : Errors.CONCURRENT_TRANSACTIONS);
            case COMPLETE_COMMIT -> retry ? (commit ? new AnswerAsBefore() : new Refuse(Errors.INVALID_TXN_STATE))
                    : (commit ? new Refuse(Errors.INVALID_TXN_STATE) : new Decide(false));
            case COMPLETE_ABORT -> retry ? (commit ? new Refuse(Errors.INVALID_TXN_STATE) : new AnswerAsBefore())
                    : (commit ? new Refuse(Errors.INVALID_TXN_STATE) : new Decide(false));
            case EMPTY -> commit ? new Refuse(Errors.INVALID_TXN_STATE) : new Decide(false);
            default -> new Refuse(Errors.INVALID_TXN_STATE);
        };
    }
}
