package org.cloudtalk.testbed.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Hadoop's {@code *-site.xml} files, written from settings. */
final class HadoopConf {
    private HadoopConf() {}

    static void write(Path file, Map<String, String> settings) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        settings.forEach((key, value) -> xml.append("  <property><name>")
                .append(escape(key))
                .append("</name><value>")
                .append(escape(value))
                .append("</value></property>\n"));
        xml.append("</configuration>\n");
        Files.writeString(file, xml);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
