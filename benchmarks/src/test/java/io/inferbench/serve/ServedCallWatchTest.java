package io.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServedCallWatchTest {
    @Test
    void aCallThatDoesNotReturnIsNamedWithWhereItWas() throws Exception {
        CompletableFuture<String> said = new CompletableFuture<>();
        Thread stuck;
        try (ServedCallWatch watch = ServedCallWatch.install(0.3, said::complete)) {
            ServedCallWatch.Slot slot = ServedCallWatch.slot();
            stuck = new Thread(() -> {
                slot.begin("call");
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            stuck.start();
            String message = said.get(20, TimeUnit.SECONDS);
            assertTrue(message.startsWith("timed out after 0.3 s while serving: the target's call did not return"), message);
            assertTrue(message.contains("Thread.sleep"), "where the call was: " + message);
            assertTrue(message.contains("-Dbench.callTimeoutSeconds"), "the fix: " + message);
        }
        stuck.interrupt();
        assertNull(ServedCallWatch.slot(), "a closed watch hands out no slots");
    }

    @Test
    void callsThatKeepReturningAreNotStuckHoweverLongTheyRunInAll() throws Exception {
        CompletableFuture<String> said = new CompletableFuture<>();
        try (ServedCallWatch watch = ServedCallWatch.install(0.3, said::complete)) {
            ServedCallWatch.Slot slot = ServedCallWatch.slot();
            long endNs = System.nanoTime() + 1_500_000_000L;
            while (System.nanoTime() < endNs) {
                slot.begin("call");
                Thread.sleep(5);
                slot.end();
            }
            // Busy in one slot's calls five limits long, never one call over it; idle since.
            Thread.sleep(3 * ServedCallWatch.CHECK_MS);
            assertFalse(said.isDone(), () -> "flagged: " + said.join());
            assertEquals("closed", ServedCallWatch.watched("close", () -> "closed"));
        }
    }
}
