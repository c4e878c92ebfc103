package io.tributary.chaos.load;

/** A client that writes or reads along while the faults happen. */
public interface Load extends AutoCloseable {
    void start();

    /** Stops sending (or reading) and waits for outstanding sends to finish or fail. */
    @Override
    void close();
}
