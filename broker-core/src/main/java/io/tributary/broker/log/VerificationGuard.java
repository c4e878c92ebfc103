package io.tributary.broker.log;

/**
 * A partition leader's proof that the transaction coordinator confirmed, for one producer at one epoch, that this
 * partition is in its open transaction, or added it there (KIP-890): taken from the producer state before asking the
 * coordinator, and valid for the append only while no marker that ends that transaction has come since. So a write
 * that arrives after its transaction ended cannot open a new, hanging one. Compared by identity.
 */
public final class VerificationGuard {
    /**
     * No question to ask: the producer's transaction is open here at the batch's epoch (its append is refused if it
     * has ended since), or its epoch is older than one seen here (the append refuses it as fenced).
     */
    public static final VerificationGuard NOT_NEEDED = new VerificationGuard((short) -1, false);

    private final short epoch;
    private final boolean bumpsEpoch;

    VerificationGuard(short epoch, boolean bumpsEpoch) {
        this.epoch = epoch;
        this.bumpsEpoch = bumpsEpoch;
    }

    /** True if the coordinator must be asked before the append. */
    public boolean needsVerification() {
        return this != NOT_NEEDED;
    }

    /** Whether this guard serves a write of {@code epoch} by a producer of the same transaction version. */
    boolean serves(short epoch, boolean bumpsEpoch) {
        return this.epoch == epoch && this.bumpsEpoch == bumpsEpoch;
    }

    /**
     * Whether a marker of {@code markerEpoch} ends the transaction this guard is for. A producer of transaction version
     * 2 moves to the marker's epoch when its transaction ends, so the marker of the transaction before it carries the
     * guard's own epoch and ends nothing the guard covers; otherwise a marker of the guard's epoch or a newer one ends it.
     */
    boolean endedBy(short markerEpoch) {
        return markerEpoch > epoch || markerEpoch == epoch && !bumpsEpoch;
    }
}
