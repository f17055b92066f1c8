package org.cloudtalk.testbed.cli;

import java.nio.file.Path;
import org.cloudtalk.testbed.TestbedConfig;
import picocli.CommandLine.Option;

/** Where a testbed's state file, logs and results live. */
final class RunDirOption {
    @Option(
            names = "--run-dir",
            paramLabel = "DIR",
            description = "the testbed's run directory (default: ${DEFAULT-VALUE})")
    private Path runDir = TestbedConfig.DEFAULT_RUN_DIR;

    Path path() {
        return runDir;
    }
}
