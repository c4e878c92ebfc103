package io.tributary.consumer.cli;

/**
 * Runs an action when the JVM is asked to stop (Ctrl-C, SIGTERM) while a command is working;
 * removed again by {@link #close()} when the command ends normally, so in-process runs (tests)
 * leave no hooks behind.
 */
final class ShutdownHook implements AutoCloseable {
    private final Thread thread;

    private ShutdownHook(Thread thread) {
        this.thread = thread;
    }

    static ShutdownHook register(String name, Runnable action) {
        Thread thread = new Thread(action, name);
        Runtime.getRuntime().addShutdownHook(thread);
        return new ShutdownHook(thread);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(thread);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running or ran: nothing to remove.
        }
    }
}
