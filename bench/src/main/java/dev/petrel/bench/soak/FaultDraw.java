package dev.petrel.bench.soak;

import java.util.random.RandomGenerator;

/**
 * The sizes, counts and choices of each fault, drawn from the injector's seeded generator. Every
 * draw is made here, before the fault runs and in a fixed number whatever the server does, so
 * that the same seed and the same kinds in the same order replay the same faults.
 */
final class FaultDraw {
    private FaultDraw() {}

    /** A fault of {@code kind} against {@code target}, drawn from {@code random}, for a server that takes {@code maxConnections}. */
    static Fault draw(FaultKind kind, Listener target, RandomGenerator random, int maxConnections) {
        return switch (kind) {
            case BODY_RESET_UPLOAD -> new BodyResetUpload(random.nextInt(20_000, 100_001), random.nextInt(0, 301), random.nextLong());
            case BODY_RESET_DOWNLOAD -> new BodyResetDownload(random.nextInt(48 * 1024, 80 * 1024 + 1));
            case TRUNCATED_CHUNKED -> {
                int announced = random.nextInt(16 * 1024, 256 * 1024 + 1);
                yield new TruncatedChunked(announced, random.nextInt(1, announced / 2), random.nextLong());
            }
            case SLOWLORIS_HEAD -> Slowloris.head(target, random.nextInt(10, 21), random.nextInt(6_000, 8_001), random.nextInt(1, 5));
            case SLOWLORIS_BODY -> Slowloris.body(target, random.nextInt(4, 11), random.nextInt(6_000, 8_001), random.nextInt(1, 5),
                    random.nextLong());
            case TLS_GARBAGE -> TlsGarbage.draw(random, random.nextInt(1024, 4097), random.nextBoolean());
            case TLS_HANDSHAKE_CUT -> new TlsHandshakeCut(random.nextBoolean(), random.nextDouble(), random.nextInt(0, 501));
            case H2_RAPID_RESET -> new H2RapidReset(random.nextInt(500, 1001), random.nextInt(2, 6));
            case H2_CONTINUATION_FLOOD -> new H2ContinuationFlood(random.nextInt(1024, 16 * 1024 + 1));
            case H2_SETTINGS_FLOOD -> new H2SettingsFlood(random.nextInt(8_000, 12_001));
            case WEBSOCKET_VANISH -> WebSocketVanish.draw(random, random.nextInt(3, 9));
            case HALF_CLOSE -> new HalfClose(random.nextBoolean());
            case CONNECTION_BURST -> new ConnectionBurst(maxConnections + ConnectionBurst.OVER_THE_LIMIT, maxConnections);
        };
    }
}
