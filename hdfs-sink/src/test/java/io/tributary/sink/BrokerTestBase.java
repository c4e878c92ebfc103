package io.tributary.sink;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The sink ITs' broker: one per test class, started by {@link SinkTestBroker#start} (the one place its address comes from). */
abstract class BrokerTestBase {
    static SinkTestBroker broker;

    @BeforeAll
    static void startBroker(@TempDir java.nio.file.Path kafkaDir) throws Exception {
        broker = SinkTestBroker.start(kafkaDir);
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }
}
