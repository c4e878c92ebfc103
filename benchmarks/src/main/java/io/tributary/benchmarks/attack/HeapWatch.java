package io.tributary.benchmarks.attack;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * The heap high-water mark of another JVM on this machine (a broker the harness started), read through the
 * attach API and its local JMX agent: the sum of the heap pools' peaks, garbage included, so an upper bound of
 * what the broker held at any moment since the last {@link #resetPeak}; and what it still holds after a full
 * collection.
 */
final class HeapWatch implements AutoCloseable {
    private final JMXConnector connector;
    private final List<MemoryPoolMXBean> heapPools;
    private final MemoryMXBean memory;

    private HeapWatch(JMXConnector connector, List<MemoryPoolMXBean> heapPools, MemoryMXBean memory) {
        this.connector = connector;
        this.heapPools = heapPools;
        this.memory = memory;
    }

    static HeapWatch attach(long pid) throws IOException {
        String address;
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to JVM " + pid + ": " + e.getMessage(), e);
        }
        JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
        MBeanServerConnection server = connector.getMBeanServerConnection();
        List<MemoryPoolMXBean> heapPools = ManagementFactory.getPlatformMXBeans(server, MemoryPoolMXBean.class).stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .toList();
        return new HeapWatch(connector, heapPools, ManagementFactory.getPlatformMXBean(server, MemoryMXBean.class));
    }

    void resetPeak() {
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    long peakBytes() {
        return heapPools.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    }

    /** What the broker still holds: a full collection in its JVM, then its heap in use. */
    long liveBytesAfterFullGc() {
        memory.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
