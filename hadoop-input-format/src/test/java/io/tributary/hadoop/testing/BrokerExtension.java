package io.tributary.hadoop.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One {@link TestBroker} per test class: {@code @RegisterExtension static final BrokerExtension broker = new BrokerExtension();}
 * Started before the first test, stopped after the last; its data lives in a temp directory.
 */
public final class BrokerExtension implements BeforeAllCallback, AfterAllCallback {
    private TestBroker broker;
    private Path dir;

    /** The broker named by {@code -Dit.broker} (Tributary by default). */
    public BrokerExtension() {
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("broker-" + context.getRequiredTestClass().getSimpleName());
        broker = TestBroker.start(dir);
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (broker != null) {
            broker.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    public TestBroker broker() {
        return broker;
    }
}
