package io.tributary.broker.log;

/** An index file breaks an invariant; the loader rebuilds it from the log. */
final class CorruptIndexException extends RuntimeException {

    CorruptIndexException(String message) {
        super(message);
    }
}
