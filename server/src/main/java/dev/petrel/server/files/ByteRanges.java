package dev.petrel.server.files;

import dev.petrel.http.Decimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code Range} request header (RFC 9110 section 14.2) against a representation of a known
 * length: which byte ranges to send. A header that is not a well-formed {@code bytes} range set
 * is ignored, as the RFC allows (the whole representation is sent); one whose ranges all lie past
 * the end is unsatisfiable (416).
 */
final class ByteRanges {
    /**
     * Ranges past this count are not served as ranges: many small or overlapping ranges cost the
     * server far more than the one response they stand for (RFC 9110 section 17.15), so such a
     * request gets the whole file instead.
     */
    static final int MAX_RANGES = 16;

    /** One range, {@code first} to {@code last} inclusive, within the representation. */
    record Range(long first, long last) {
        long length() {
            return last - first + 1;
        }
    }

    /** What to do with the request: ignore the header, refuse it, or send {@code ranges}. */
    sealed interface Decision {
        /** Send the whole representation, as if no {@code Range} header had come. */
        record Whole() implements Decision {}

        /** 416: no range overlaps the representation. */
        record Unsatisfiable() implements Decision {}

        /** 206 with these ranges, in the order asked. */
        record Partial(List<Range> ranges) implements Decision {}
    }

    private ByteRanges() {}

    static Decision decide(String header, long size) {
        if (header == null) return new Decision.Whole();
        String value = header.strip();
        if (!value.regionMatches(true, 0, "bytes=", 0, 6)) return new Decision.Whole(); // another unit: ignored
        String[] specs = value.substring(6).split(",");
        if (specs.length > MAX_RANGES) return new Decision.Whole();
        List<Range> ranges = new ArrayList<>(specs.length);
        for (String raw : specs) {
            String spec = raw.strip();
            int dash = spec.indexOf('-');
            if (dash < 0) return new Decision.Whole(); // malformed: ignored
            String from = spec.substring(0, dash).strip();
            String to = spec.substring(dash + 1).strip();
            if (from.isEmpty()) { // "-N": the last N bytes
                long suffix = Decimal.parse(to);
                if (suffix < 0) return new Decision.Whole();
                if (suffix == 0 || size == 0) continue; // unsatisfiable on its own
                ranges.add(new Range(Math.max(0, size - suffix), size - 1));
                continue;
            }
            long first = Decimal.parse(from);
            long last = to.isEmpty() ? Long.MAX_VALUE : Decimal.parse(to);
            if (first < 0 || last < 0 || last < first) return new Decision.Whole();
            if (first >= size) continue; // unsatisfiable on its own
            ranges.add(new Range(first, Math.min(last, size - 1)));
        }
        return ranges.isEmpty() ? new Decision.Unsatisfiable() : new Decision.Partial(List.copyOf(ranges));
    }
}
