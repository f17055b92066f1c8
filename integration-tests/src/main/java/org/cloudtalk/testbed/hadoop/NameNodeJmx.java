package org.cloudtalk.testbed.hadoop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A NameNode's {@code /jmx} servlet: which DataNodes are live, and any metrics bean (e.g. the CloudTalk plugins');
 * {@link #numbers} and {@link #text} read any Hadoop daemon's (the ResourceManager's too).
 */
public final class NameNodeJmx {
    /** The daemons' metrics period; metrics2 values in /jmx are at most this old (plus one refresh). */
    static final Duration METRICS_PERIOD = Duration.ofSeconds(1);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    NameNodeJmx(URI base) {
        this.base = base;
    }

    /** What readiness needs: safe mode, and the addresses of live, in-service DataNodes with space remaining. */
    public record Status(boolean safeMode, List<String> dataNodesWithSpace) {
        public Status {
            dataNodesWithSpace = List.copyOf(dataNodesWithSpace);
        }
    }

    public Status status() throws IOException {
        JsonNode info = bean("Hadoop:service=NameNode,name=NameNodeInfo");
        List<String> live = new ArrayList<>();
        // LiveNodes is a JSON document inside a string: node name -> {xferaddr: "IP:PORT", remaining, adminState...}.
        JsonNode nodes = JSON.readTree(info.path("LiveNodes").asText("{}"));
        for (JsonNode node : nodes) {
            String transfer = node.path("xferaddr").asText("");
            if (node.path("remaining").asLong(0) > 0
                    && "In Service".equals(node.path("adminState").asText())) {
                live.add(transfer.substring(0, Math.max(0, transfer.lastIndexOf(':'))));
            }
        }
        return new Status(!info.path("Safemode").asText("").isEmpty(), live);
    }

    /**
     * The numeric attributes of bean {@code name} (e.g. {@code Hadoop:service=NameNode,name=CloudTalkHdfsWrite}),
     * sorted by name, as of now: waits out the metrics cache first (two metrics periods). Empty if the NameNode has no
     * such bean.
     */
    public Map<String, Long> numbers(String name) throws IOException {
        HadoopDaemons.pause(METRICS_PERIOD.multipliedBy(2).toMillis());
        Map<String, Long> numbers = new TreeMap<>();
        JsonNode bean;
        try {
            bean = bean(name);
        } catch (NoSuchBean e) {
            return numbers;
        }
        bean.fields().forEachRemaining(field -> {
            if (field.getValue().isNumber()) {
                numbers.put(field.getKey(), field.getValue().asLong());
            }
        });
        return numbers;
    }

    /** A text attribute of bean {@code name}, e.g. a JSON document a daemon publishes as a string; empty if none. */
    public String text(String name, String attribute) throws IOException {
        try {
            return bean(name).path(attribute).asText("");
        } catch (NoSuchBean e) {
            return "";
        }
    }

    private JsonNode bean(String name) throws IOException {
        URI uri = base.resolve("/jmx?qry=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
        HttpRequest request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (response.statusCode() != 200) {
            throw new IOException(uri + " answered " + response.statusCode());
        }
        JsonNode beans = JSON.readTree(response.body()).path("beans");
        if (beans.isEmpty()) {
            throw new NoSuchBean(name);
        }
        return beans.get(0);
    }

    private static final class NoSuchBean extends IOException {
        NoSuchBean(String name) {
            super("no bean " + name);
        }
    }
}
