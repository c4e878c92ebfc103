package io.tributary.hadoop.dataset;

/** Refuses to move a ledger entry backward, which would load records a second time. */
public final class LedgerRegressionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public LedgerRegressionException(String topic, int partition, long current, long proposed) {
        super("refusing to move the ledger of " + topic + "-" + partition + " backward from "
            + current + " to " + proposed + ": those offsets are already in the dataset");
    }
}
