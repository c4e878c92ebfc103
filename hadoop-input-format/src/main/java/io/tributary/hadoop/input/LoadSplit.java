package io.tributary.hadoop.input;

import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * One map task's work, for both APIs: a {@link TopicSplit} reads offset ranges through the brokers, a
 * {@link TieredSplit} reads a range of a tiered segment copy straight from the FileSystem. A value with a
 * {@link Writable} round trip.
 */
public abstract class LoadSplit extends InputSplit implements Writable, org.apache.hadoop.mapred.InputSplit {

    /** The offsets this split covers, an upper bound on its records. */
    public abstract long span();

    /** One line for the loader's plan: what is read, and from where. */
    public abstract String describe();

    /** Hadoop sorts splits by this to start the largest first. */
    @Override
    public long getLength() {
        return span();
    }
}
