package io.tributary.broker.log;

/**
 * A partition leader's proof that the transaction coordinator confirmed, for one producer, that this partition is
 * in its open transaction (KIP-890): taken from the producer state before asking the coordinator, and valid for the
 * append only while no marker has come since. So a write that arrives after its transaction ended cannot open a
 * new, hanging one. Compared by identity.
 */
public final class VerificationGuard {
    /**
     * No question to ask: the producer's transaction is open here (its append is refused if it has ended since), or
     * its epoch is older than one seen here (the append refuses it as fenced).
     */
    public static final VerificationGuard NOT_NEEDED = new VerificationGuard();

    VerificationGuard() {
    }

    /** True if the coordinator must be asked before the append. */
    public boolean needsVerification() {
        return this != NOT_NEEDED;
    }
}
