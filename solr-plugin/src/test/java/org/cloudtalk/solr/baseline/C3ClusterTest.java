package org.cloudtalk.solr.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The C3 baseline wired into Solr: distributed queries succeed and their responses feed the ranking. */
class C3ClusterTest {
    @TempDir
    static Path temp;

    static MiniSolrCloudCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        String solrXml = MiniSolrCloudCluster.DEFAULT_CLOUD_SOLR_XML.replace(
                "class=\"HttpShardHandlerFactory\">",
                "class=\"org.cloudtalk.solr.baseline.C3ShardHandlerFactory\">\n"
                        + "    <str name=\"c3.alpha\">0.3</str>\n");
        assertThat(solrXml).contains("C3ShardHandlerFactory");
        cluster = new MiniSolrCloudCluster.Builder(3, temp.resolve("solr"))
                .withSolrXml(solrXml)
                .addConfig(
                        "minimal",
                        Path.of(C3ClusterTest.class
                                .getResource("/configsets/minimal/conf")
                                .toURI()))
                .build();
        CollectionAdminRequest.createCollection("docs", "minimal", 2, 2).process(cluster.getSolrClient());
        cluster.waitForActiveCollection("docs", 60, TimeUnit.SECONDS, 2, 4);
        List<SolrInputDocument> docs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            SolrInputDocument doc = new SolrInputDocument();
            doc.addField("id", "doc-" + i);
            docs.add(doc);
        }
        cluster.getSolrClient().add("docs", docs);
        cluster.getSolrClient().commit("docs");
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.shutdown();
        }
    }

    @Test
    void responsesFeedTheRankingOfTheReplicasQueried() throws Exception {
        for (int i = 0; i < 20; i++) {
            assertThat(cluster.getSolrClient()
                            .query("docs", new SolrQuery("*:*"))
                            .getResults()
                            .getNumFound())
                    .isEqualTo(10);
        }
        Set<String> replicaBaseUrls = new HashSet<>();
        cluster.getZkStateReader().getClusterState().getCollection("docs").getReplicas().stream()
                .map(Replica::getBaseUrl)
                .forEach(replicaBaseUrls::add);
        Set<String> known = new HashSet<>();
        for (JettySolrRunner jetty : cluster.getJettySolrRunners()) {
            known.addAll(((C3ShardHandlerFactory) jetty.getCoreContainer().getShardHandlerFactory())
                    .ranking()
                    .known());
        }
        // Every figure is about a replica, under the key the transformer ranks by (the base URL).
        assertThat(known).isNotEmpty().isSubsetOf(replicaBaseUrls);
    }
}
