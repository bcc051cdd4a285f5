package io.inferbench.probe;

import java.nio.file.Path;

/** Lets tests in other packages reach the sizing rule's parts without widening the production API. */
public final class StreamArraysAccess {
    private StreamArraysAccess() {
    }

    public static long lastLevelCacheBytes(Path cacheDir) {
        return StreamArrays.lastLevelCacheBytes(cacheDir);
    }

    public static long arrayBytes(long llcBytes) {
        return StreamArrays.arrayBytes(llcBytes);
    }

    public static long arrayBytes() {
        return StreamArrays.arrayBytes();
    }

    public static long parseSize(String text) {
        return StreamArrays.parseSize(text);
    }
}
