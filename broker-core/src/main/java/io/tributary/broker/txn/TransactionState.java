package io.tributary.broker.txn;

/** The states of a transactional id, with the ids Kafka stores in {@code __transaction_state}. */
public enum TransactionState {
    EMPTY(0, "Empty"),
    ONGOING(1, "Ongoing"),
    PREPARE_COMMIT(2, "PrepareCommit"),
    PREPARE_ABORT(3, "PrepareAbort"),
    COMPLETE_COMMIT(4, "CompleteCommit"),
    COMPLETE_ABORT(5, "CompleteAbort"),
    DEAD(6, "Dead"),
    PREPARE_EPOCH_FENCE(7, "PrepareEpochFence");

    private final byte id;
    private final String displayName;

    TransactionState(int id, String displayName) {
        this.id = (byte) id;
        this.displayName = displayName;
    }

    public byte id() {
        return id;
    }

    /** The name Kafka's tools show (DescribeTransactions, ListTransactions). */
    public String displayName() {
        return displayName;
    }

    public static TransactionState fromId(byte id) {
        for (TransactionState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown transaction state " + id);
    }

    /** Whether markers are being written: the transaction is decided but not complete. */
    boolean isPreparing() {
        return this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }

    /** Whether no transaction is open: a new one may begin. */
    boolean isIdle() {
        return this == EMPTY || this == COMPLETE_COMMIT || this == COMPLETE_ABORT;
    }
}
