package io.tributary.benchmarks.harness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class MachineInfoTest {
    @Test
    void readsCpuModelMemoryAndLoadFromProc(@TempDir Path proc) throws IOException {
        Files.writeString(proc.resolve("cpuinfo"), "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nprocessor\t: 1\n");
        Files.writeString(proc.resolve("meminfo"), "MemTotal:       24609148 kB\nMemFree:        1000 kB\n");
        Files.writeString(proc.resolve("loadavg"), "0.52 1.10 0.98 2/345 6789\n");

        MachineInfo machine = MachineInfo.read(proc);

        assertThat(machine.cpuModel()).isEqualTo("AMD EPYC 7B13");
        assertThat(machine.memory()).isEqualTo("23.5 GiB");
        assertThat(machine.loadAverage()).isEqualTo("0.52 1.10 0.98");
        assertThat(machine.busyAtStart()).isFalse();
    }

    @Test
    void aLoadAboveTheCpuCountMeansTheMachineWasBusy() {
        assertThat(new MachineInfo(2, "x", "1 GiB", "java", "os", "2.50 1.0 1.0").busyAtStart()).isTrue();
        assertThat(new MachineInfo(2, "x", "1 GiB", "java", "os", "2.00 1.0 1.0").busyAtStart()).isFalse();
    }

    @Test
    void missingProcFilesReadAsUnknown(@TempDir Path emptyProc) {
        MachineInfo machine = MachineInfo.read(emptyProc);
        assertThat(machine.cpuModel()).isEqualTo("unknown");
        assertThat(machine.memory()).isEqualTo("unknown");
        assertThat(machine.loadAverage()).isEqualTo("unknown");
        assertThat(machine.busyAtStart()).isFalse();
    }
}
