package org.cloudtalk.hadoop.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.NodeBase;
import org.junit.jupiter.api.Test;

class EndpointsTest {
    private static final DatanodeInfo DATANODE = datanode("10.0.0.7", "127.0.0.5");

    @Test
    void aDataNodeIsItsRegisteredIpOrWhatItsHostNameResolvesTo() {
        assertThat(new Endpoints(Endpoints.Mode.IP).of(DATANODE)).contains("10.0.0.7");
        assertThat(new Endpoints(Endpoints.Mode.HOSTNAME).of(DATANODE)).contains("127.0.0.5");
        DatanodeInfo named = datanode("10.0.0.7", "localhost");
        assertThat(new Endpoints(Endpoints.Mode.HOSTNAME).of(named)).contains("127.0.0.1");
    }

    @Test
    void anotherNodeIsItsNameWhenThatIsAnAddress() {
        Endpoints endpoints = new Endpoints(Endpoints.Mode.IP);

        assertThat(endpoints.of(new NodeBase("10.0.0.9", "/default-rack"))).contains("10.0.0.9");
        assertThat(endpoints.of(new NodeBase("client.example", "/default-rack")))
                .isEmpty();
        assertThat(endpoints.of(null)).isEmpty();
    }

    /** A DataNode as the NameNode sees it: registered IP and host name (the same shape DatanodeDescriptor has). */
    private static DatanodeInfo datanode(String ip, String hostName) {
        return new DatanodeInfo.DatanodeInfoBuilder()
                .setNodeID(new DatanodeID(ip, hostName, "uuid-" + hostName, 9866, 9864, 0, 9867))
                .build();
    }
}
