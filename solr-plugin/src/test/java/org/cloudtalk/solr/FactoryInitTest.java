package org.cloudtalk.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.solr.common.util.NamedList;
import org.apache.solr.core.PluginInfo;
import org.cloudtalk.solr.replica.ConfigException;
import org.junit.jupiter.api.Test;

/** A bad setting fails the factory's start before anything of Solr's or ours runs. */
class FactoryInitTest {
    @Test
    void aBadSettingStartsNoThread() {
        NamedList<Object> args = new NamedList<>();
        args.add("cloudtalk.deadline.ms", "soon");
        PluginInfo info = new PluginInfo("shardHandlerFactory", Map.of("name", "shardHandlerFactory"), args, null);
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        CloudTalkShardHandlerFactory factory = new CloudTalkShardHandlerFactory();
        try {
            assertThatThrownBy(() -> factory.init(info))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("cloudtalk.deadline.ms");
            Set<String> started = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> !before.contains(thread) && thread.isAlive())
                    .map(Thread::getName)
                    .collect(Collectors.toSet());
            assertThat(started).as("threads started by the failed init").isEmpty();
        } finally {
            factory.close();
        }
    }
}
