package org.cloudtalk.hadoop.mapreduce;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Modifier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.cloudtalk.hadoop.PluginKeys;
import org.cloudtalk.hadoop.hint.HintSettings;

/**
 * The map placement wrapper's keys (docs/hadoop-plugins.md), set in the job's configuration, next to the shared
 * {@link HintSettings}.
 *
 * @param hints the server, deadline (default {@value #DEFAULT_DEADLINE_MS} ms: one query per job, while it is
 *     submitted) and the other shared settings
 * @param inner the input format whose splits are filtered (Hadoop's default, {@link TextInputFormat}, if unset)
 * @param slowFraction a host is slow when CloudTalk's score for reading from its disk is below this fraction of the
 *     best split host's. The score expects a fair share against the load a disk already has, so a disk saturated by
 *     others scores about half of an idle one of the same speed, and a disk five times slower a fifth: the default,
 *     0.6, counts both as slow
 */
public record MapHintSettings(HintSettings hints, Class<? extends InputFormat<?, ?>> inner, double slowFraction) {
    public static final String INNER_FORMAT = "cloudtalk.mapreduce.inputformat.class";
    public static final String SLOW_FRACTION = "cloudtalk.mapreduce.slow.fraction";
    public static final long DEFAULT_DEADLINE_MS = 1000;
    public static final double DEFAULT_SLOW_FRACTION = 0.6;

    public MapHintSettings {
        requireNonNull(hints, "hints is null");
        requireNonNull(inner, "inner is null");
    }

    public static MapHintSettings from(Configuration conf) {
        PluginKeys.refuseUnknown(conf);
        return new MapHintSettings(
                HintSettings.from(conf, DEFAULT_DEADLINE_MS),
                inner(conf),
                HintSettings.fraction(conf, SLOW_FRACTION, DEFAULT_SLOW_FRACTION));
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends InputFormat<?, ?>> inner(Configuration conf) {
        String name = HintSettings.text(conf, INNER_FORMAT, TextInputFormat.class.getName());
        Class<?> type;
        try {
            type = conf.getClassByName(name);
        } catch (ClassNotFoundException e) {
            throw HintSettings.invalid(name, INNER_FORMAT, "no such class on the job's class path");
        }
        if (!InputFormat.class.isAssignableFrom(type)) {
            throw HintSettings.invalid(name, INNER_FORMAT, "not an org.apache.hadoop.mapreduce.InputFormat");
        }
        if (CloudTalkInputFormat.class.isAssignableFrom(type)) {
            throw HintSettings.invalid(name, INNER_FORMAT, "the wrapper cannot wrap itself");
        }
        // Hadoop would fail the job's submission with a bare InstantiationException (FileInputFormat is abstract).
        if (Modifier.isAbstract(type.getModifiers())) {
            throw HintSettings.invalid(name, INNER_FORMAT, "an abstract class; name a format such as TextInputFormat");
        }
        try {
            type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            throw HintSettings.invalid(name, INNER_FORMAT, "no constructor without arguments");
        }
        return (Class<? extends InputFormat<?, ?>>) type;
    }
}
