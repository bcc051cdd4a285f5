package io.inferbench.probe;

import com.sun.management.GarbageCollectionNotificationInfo;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * This JVM's garbage collections as they end, from HotSpot's GC notifications, so a stretch of time can be asked what
 * collections it held ({@link #between}). A young collection stops every Java thread, the load generator and a
 * worker waiting for its next batch included: on a machine whose cores the engine keeps busy, young pauses can be long
 * enough to set a serving point's p99 on their own (docs/findings.md, "Young collections under load").
 *
 * <p>Clocks: a notification gives its collection's start and duration in milliseconds since the JVM started, by a clock
 * whose origin differs from {@code RuntimeMXBean.getUptime()}'s by tens of milliseconds. So each notification is also
 * stamped with {@code System.nanoTime()} on arrival, and the smallest arrival-less-end difference seen maps the
 * notifications' clock onto {@code System.nanoTime()} (the quickest delivery is the closest to none). Stretches are
 * asked in {@code System.nanoTime()}, to about a millisecond. Listening costs nothing between collections; the last
 * {@value #KEPT} collections are kept. One per JVM ({@link #instance}).
 */
public final class GcPauses {
    static final int KEPT = 4096;
    private static GcPauses instance;

    /** One collection: which collector, what it did and why, when it started (notifications' clock) and how long it took. */
    public record Collection(String collector, String action, String cause, long startUptimeMs, long durationMs) {
    }

    /**
     * What a stretch of time held: how many collections ended in it, their total and longest duration, and each
     * collector's action with its count ({@code G1 Young Generation: end of minor GC x2}).
     */
    public record Summary(int collections, double totalMs, double maxMs, List<String> kinds) {
    }

    private final ArrayDeque<Collection> collections = new ArrayDeque<>();
    private final boolean listening;

    private GcPauses() {
        this(true);
    }

    /** @param listen register with the JVM's collectors; false: fed by {@link #record} alone (tests) */
    GcPauses(boolean listen) {
        if (!listen) {
            listening = false;
            return;
        }
        boolean any = false;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((notification, handback) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
                                (CompositeData) notification.getUserData());
                        record(new Collection(info.getGcName(), info.getGcAction(), info.getGcCause(),
                                info.getGcInfo().getStartTime(), info.getGcInfo().getDuration()), System.nanoTime());
                    }
                }, null, null);
                any = true;
            }
        }
        listening = any;
    }

    /** The JVM's listener, registered on first use. */
    public static synchronized GcPauses instance() {
        if (instance == null) {
            instance = new GcPauses();
        }
        return instance;
    }

    /** Whether this JVM's collectors send notifications (HotSpot's do); without them every summary is empty. */
    public boolean listening() {
        return listening;
    }

    /** @param arrivedNs {@code System.nanoTime()} when its notification arrived */
    synchronized void record(Collection collection, long arrivedNs) {
        if (collections.size() == KEPT) {
            collections.removeFirst();
        }
        collections.addLast(collection);
        offsetNs = Math.min(offsetNs, arrivedNs - (collection.startUptimeMs() + collection.durationMs()) * 1_000_000L);
    }

    /** {@code System.nanoTime()} less the notifications' clock in nanoseconds: the smallest arrival-less-end seen. */
    private long offsetNs = Long.MAX_VALUE;

    /**
     * The collections that started at or after {@code fromNanoTime} and ended by {@code toNanoTime} (both
     * {@code System.nanoTime()}); a collection ending in a stretch's last moments may not have been notified yet.
     */
    public synchronized Summary between(long fromNanoTime, long toNanoTime) {
        List<Collection> in = new ArrayList<>();
        for (Collection c : collections) {
            long start = c.startUptimeMs() * 1_000_000L + offsetNs;
            if (start >= fromNanoTime && start + c.durationMs() * 1_000_000L <= toNanoTime) {
                in.add(c);
            }
        }
        return summarize(in);
    }

    static Summary summarize(List<Collection> in) {
        double total = 0;
        double max = 0;
        java.util.Map<String, Integer> kinds = new java.util.LinkedHashMap<>();
        for (Collection c : in) {
            total += c.durationMs();
            max = Math.max(max, c.durationMs());
            kinds.merge(c.collector() + ": " + c.action() + " (" + c.cause() + ")", 1, Integer::sum);
        }
        List<String> named = new ArrayList<>();
        kinds.forEach((kind, count) -> named.add(kind + " x" + count));
        return new Summary(in.size(), total, max, named);
    }
}
