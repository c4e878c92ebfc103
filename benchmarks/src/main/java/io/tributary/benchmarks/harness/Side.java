package io.tributary.benchmarks.harness;

/** The two brokers of a run: A is the reference (Apache Kafka), B the broker measured against it. */
public enum Side {
    BASELINE("A"),
    CANDIDATE("B");

    private final String letter;

    Side(String letter) {
        this.letter = letter;
    }

    public String letter() {
        return letter;
    }

    /** "Apache Kafka 4.4 (A)". */
    public String label(BrokerFlavor flavor) {
        return flavor.displayName() + " (" + letter + ")";
    }
}
