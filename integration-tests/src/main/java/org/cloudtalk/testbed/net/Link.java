package org.cloudtalk.testbed.net;

/** One direction of a host's access link; each has its own shaper and so its own ground-truth byte counter. */
public record Link(Host host, Direction direction) {
    public enum Direction {
        /** Host to core: shaped on the host's veth. */
        UPLOAD,
        /** Core to host: shaped on the core's veth. */
        DOWNLOAD
    }

    /** Bytes this link's shaper has sent so far; {@code core} is the core namespace's name. */
    public long sentBytes(String core) {
        return direction == Direction.UPLOAD
                ? Shaper.sentBytes(host.namespace(), host.link())
                : Shaper.sentBytes(core, host.coreLink());
    }

    @Override
    public String toString() {
        return host.namespace() + (direction == Direction.UPLOAD ? " up" : " down");
    }
}
