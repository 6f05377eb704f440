package dev.petrel.bench.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * The notes one fault takes as it goes, what it sent and what came back, which become its
 * {@link FaultRecord#detail()}. Noted step by step rather than returned at the end, so that a fault
 * the server cuts short (an exception) or the injector cuts at its bound still says how far it got.
 */
final class Transcript {
    private final List<String> notes = new ArrayList<>();

    /** Adds one note: a short clause, no trailing period. */
    synchronized void note(String note) {
        notes.add(note);
    }

    /** The notes on one line. */
    synchronized String text() {
        return notes.isEmpty() ? "nothing done" : String.join("; ", notes);
    }
}
