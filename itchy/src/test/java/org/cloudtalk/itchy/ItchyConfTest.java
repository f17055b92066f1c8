package org.cloudtalk.itchy;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ItchyConfTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "itchy.mode | fast | Invalid value fast for itchy.mode: use auto, qmc, mo, merge or off",
                "itchy.sample.records | many | Invalid value many for itchy.sample.records: must be a whole number"
                        + " from 1 to 2147483647",
                "itchy.sample.records | 3000000000 | Invalid value 3000000000 for itchy.sample.records: must be a whole"
                        + " number from 1 to 2147483647",
                "itchy.qmc.lookup.threads | 0 | Invalid value 0 for itchy.qmc.lookup.threads: must be a whole number"
                        + " from 1 to 2147483647",
                "itchy.qmc.task.records | 100k | Invalid value 100k for itchy.qmc.task.records: must be a whole"
                        + " number from 1 to 2147483647",
                "itchy.chunk.bytes | 4M | Invalid value 4M for itchy.chunk.bytes: must be a whole number from 1 to"
                        + " 2147483647",
                "itchy.chunk.bytes | 3000000000 | Invalid value 3000000000 for itchy.chunk.bytes: must be a whole number"
                        + " from 1 to 2147483647",
                "itchy.bulk.spill.bytes | -1 | Invalid value -1 for itchy.bulk.spill.bytes: must be a whole number"
                        + " above 0",
                "itchy.mo.touched.keys.max | 1.5 | Invalid value 1.5 for itchy.mo.touched.keys.max: must be a whole"
                        + " number from 1 to 2147483647",
                "itchy.merge.class | com.nope.Merge | Invalid value com.nope.Merge for itchy.merge.class: no such class"
                        + " on the classpath",
                "itchy.merge.class | java.lang.String | Invalid value java.lang.String for itchy.merge.class: not a"
                        + " org.cloudtalk.itchy.MergeFunction",
                "itchy.qmc.threshold | -3 | Invalid value -3 for itchy.qmc.threshold: must be a plain decimal number of"
                        + " at least 0",
                "itchy.qmc.threshold | NaN | Invalid value NaN for itchy.qmc.threshold: must be a plain decimal number"
                        + " of at least 0",
                "itchy.qmc.threshold | 1e3 | Invalid value 1e3 for itchy.qmc.threshold: must be a plain decimal number"
                        + " of at least 0",
                "itchy.qmc.threshold | 1000d | Invalid value 1000d for itchy.qmc.threshold: must be a plain decimal"
                        + " number of at least 0",
                "itchy.qmc.threshold | Infinity | Invalid value Infinity for itchy.qmc.threshold: must be a plain"
                        + " decimal number of at least 0",
                "itchy.modee | mo | Invalid value mo for itchy.modee: unknown key (known: itchy.bulk.spill.bytes,"
                        + " itchy.chunk.bytes, itchy.hbase.table, itchy.merge.class, itchy.mo.touched.keys.max,"
                        + " itchy.mode, itchy.qmc.lookup.threads, itchy.qmc.task.records, itchy.qmc.threshold,"
                        + " itchy.sample.records, itchy.signature.keys)",
                "itchy.hbase.table | my table | Invalid value my table for itchy.hbase.table: not an HBase table name"
                        + " (Illegal character code:32, < > at 2. User-space table qualifiers may only contain"
                        + " 'alphanumeric characters' and digits: my table)"
            })
    void aBadSettingIsRefusedNamingTheKey(String key, String value, String message) {
        Configuration conf = new Configuration(false);
        conf.set(key, value);
        assertThatThrownBy(() -> ItchyConf.validate(conf))
                .isInstanceOf(ItchyException.class)
                .hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource({
        "itchy.mode, MO",
        "itchy.sample.records, 1",
        "itchy.chunk.bytes, 2147483647",
        "itchy.bulk.spill.bytes, 3000000000",
        "itchy.qmc.threshold, 0",
        "itchy.qmc.threshold, 2.5",
        "itchy.hbase.table, tenant1:itchy_results",
        "itchy.task.mode, MO",
        "itchy.merge.class, org.cloudtalk.itchy.examples.WordCount$SumMerge"
    })
    void aGoodSettingPasses(String key, String value) {
        Configuration conf = new Configuration(false);
        conf.set(key, value);
        assertThatCode(() -> ItchyConf.validate(conf)).doesNotThrowAnyException();
    }
}
