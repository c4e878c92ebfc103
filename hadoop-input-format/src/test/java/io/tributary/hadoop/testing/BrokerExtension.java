package io.tributary.hadoop.testing;

import io.tributary.testkit.tributary.BrokerUnderTest;
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
    private final BrokerUnderTest.Kind kind;
    private TestBroker broker;
    private Path dir;

    /** The broker named by {@code -Dit.broker} (Tributary by default). */
    public BrokerExtension() {
        this(null);
    }

    /** Always this kind of broker: for tests that need an API only it has. */
    public BrokerExtension(BrokerUnderTest.Kind kind) {
        this.kind = kind;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("broker-" + context.getRequiredTestClass().getSimpleName());
        broker = kind == null ? TestBroker.start(dir) : TestBroker.start(kind, dir);
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
