package org.cloudtalk.itchy;

import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;

/** Orders words ignoring case: as a sort or grouping comparator it reduces "Apple" and "apple" together. */
public final class IgnoringCase extends WritableComparator {
    public IgnoringCase() {
        super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
        return a.toString().compareToIgnoreCase(b.toString());
    }
}
