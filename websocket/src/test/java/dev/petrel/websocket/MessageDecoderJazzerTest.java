package dev.petrel.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.petrel.websocket.DecoderFeeding.Event;
import dev.petrel.websocket.DecoderFeeding.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Coverage-guided fuzzing of a server's {@link MessageDecoder} (masked frames required) with
 * Jazzer, with and without permessage-deflate: any bytes give messages and control frames or a
 * {@link WebSocketException} with 1002, 1007 or 1009, never another exception; what it reports
 * is well formed (close codes valid on the wire, payloads of control frames at most 125 bytes);
 * and the outcome is the same whole, cut at a fuzzer-chosen point, and byte by byte.
 *
 * <p>A plain build replays the seeds (and past findings) in
 * {@code src/test/resources/dev/petrel/websocket/MessageDecoderJazzerTestInputs/decoder/}; with
 * {@code JAZZER_FUZZ=1} it fuzzes, see {@code scripts/fuzz.sh}. {@link FuzzedDataProvider} takes
 * numbers from the end of its input, so a seed is the wire bytes, then the cut (two bytes), the
 * limits (one byte, low bit: {@link #SMALL}) and the extension (one byte, low bit: deflate);
 * {@link #writeSeeds} writes them, when asked:
 * {@code ./mvnw -q -pl websocket test -Dtest=MessageDecoderJazzerTest#writeSeeds -Dpetrel.seeds=src/test/resources}.
 */
class MessageDecoderJazzerTest {
    /** Limits a fuzzer reaches: frames over 200 bytes and messages over 1000 fail with 1009. */
    static final WebSocketLimits SMALL = new WebSocketLimits(200, 1000);

    private static final Set<Integer> FAILURES = Set.of(CloseCodes.PROTOCOL_ERROR, CloseCodes.INVALID_PAYLOAD, CloseCodes.MESSAGE_TOO_BIG);

    @FuzzTest(maxDuration = "60s")
    void decoder(FuzzedDataProvider data) {
        boolean deflate = data.consumeBoolean();
        WebSocketLimits limits = data.consumeBoolean() ? SMALL : WebSocketLimits.DEFAULT;
        int cut = data.consumeInt(0, 0xFFFF);
        byte[] input = data.consumeRemainingAsBytes();

        Outcome whole = decode(deflate, limits, List.of(input));
        int at = cut % (input.length + 1);
        Outcome split = decode(deflate, limits, List.of(Arrays.copyOfRange(input, 0, at), Arrays.copyOfRange(input, at, input.length)));
        assertThat(split.comparable()).as("cut at %d", at).isEqualTo(whole.comparable());
        List<byte[]> singles = new ArrayList<>();
        for (byte b : input) singles.add(new byte[] {b});
        assertThat(decode(deflate, limits, singles).comparable()).as("byte by byte").isEqualTo(whole.comparable());

        if (whole.failure() != 0) assertThat(FAILURES).contains(whole.failure());
        for (Event event : whole.events()) {
            switch (event.kind()) {
                case "ping", "pong" -> assertThat(event.content().length()).isLessThanOrEqualTo(2 * 125);
                case "close" -> {
                    int code = Integer.parseInt(event.content().substring(0, event.content().indexOf(' ')));
                    assertThat(code == CloseCodes.NO_STATUS || CloseCodes.validOnWire(code)).as("close code %d", code).isTrue();
                }
                case "text" -> assertThat(event.content().getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(limits.maxMessageSize());
                case "binary" -> assertThat(event.content().length()).isLessThanOrEqualTo(2 * limits.maxMessageSize());
                default -> throw new AssertionError(event);
            }
        }
    }

    /** Feeds {@code pieces} to a new decoder, with its own negotiated extension when {@code deflate}, freed after. */
    private static Outcome decode(boolean deflate, WebSocketLimits limits, List<byte[]> pieces) {
        PerMessageDeflate extension = deflate
                ? PerMessageDeflate.negotiate(List.of("permessage-deflate"), DeflateSettings.DEFAULT).serverSide()
                : null;
        try {
            return DecoderFeeding.feed(new MessageDecoder(limits, false, extension), pieces);
        } finally {
            if (extension != null) extension.close();
        }
    }

    /** Wire bytes the seeds start from: the frames a client sends, plain and compressed. */
    static List<byte[]> seedInputs() throws WebSocketException {
        List<byte[]> inputs = new ArrayList<>();
        int[] key = {0x37FA_213D};
        MessageEncoder plain = new MessageEncoder(true, null, () -> key[0]++);
        inputs.add(concat(plain.text("Hello"), plain.binary(ByteBuffer.wrap(new byte[300])), plain.close(1000, "bye")));
        inputs.add(concat(plain.frame(Opcode.TEXT, false, ByteBuffer.wrap("κόσ".getBytes(StandardCharsets.UTF_8))),
                plain.ping(ByteBuffer.wrap(new byte[] {1, 2})), plain.frame(Opcode.CONTINUATION, true, ByteBuffer.wrap("με".getBytes(StandardCharsets.UTF_8))),
                plain.pong(ByteBuffer.allocate(0)), plain.close(CloseCodes.NO_STATUS, null)));
        inputs.add(WireFrames.concat(WireFrames.frame(WireFrames.FIN | WireFrames.BINARY, new byte[10], true, WireFrames.LengthForm.SIXTY_FOUR),
                WireFrames.frame(WireFrames.FIN | WireFrames.TEXT, "€".getBytes(StandardCharsets.UTF_8), true, WireFrames.LengthForm.SIXTEEN)));
        PerMessageDeflate clientSide = PerMessageDeflate.acceptResponse("permessage-deflate", DeflateSettings.DEFAULT.withMinSizeToCompress(0));
        MessageEncoder compressed = new MessageEncoder(true, clientSide, () -> key[0]++);
        inputs.add(concat(compressed.text("Hello"), compressed.text("Hello"), compressed.binary(ByteBuffer.wrap(new byte[2000])),
                compressed.frame(Opcode.TEXT, false, ByteBuffer.wrap("Hel".getBytes(StandardCharsets.UTF_8))),
                compressed.frame(Opcode.CONTINUATION, true, ByteBuffer.wrap("lo".getBytes(StandardCharsets.UTF_8))), compressed.close(1001, "")));
        clientSide.close();
        return inputs;
    }

    private static byte[] concat(ByteBuffer... frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer frame : frames) {
            byte[] b = new byte[frame.remaining()];
            frame.get(b);
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    /** Rewrites the seeds under the test resources directory {@code petrel.seeds}: each input with and without deflate. */
    @Test
    @EnabledIfSystemProperty(named = "petrel.seeds", matches = ".+")
    void writeSeeds() throws IOException, WebSocketException {
        Path dir = Path.of(System.getProperty("petrel.seeds")).resolve("dev/petrel/websocket/MessageDecoderJazzerTestInputs/decoder");
        Files.createDirectories(dir);
        List<byte[]> inputs = seedInputs();
        int n = 0;
        for (int i = 0; i < inputs.size(); i++) {
            for (int deflate = 0; deflate < 2; deflate++) {
                byte[] input = inputs.get(i);
                ByteArrayOutputStream seed = new ByteArrayOutputStream();
                seed.writeBytes(input);
                int cut = input.length / 3;
                seed.write(cut & 0xFF);
                seed.write(cut >>> 8);
                seed.write(i % 2); // limits
                seed.write(deflate);
                Files.write(dir.resolve(String.format("seed-%02d", n++)), seed.toByteArray());
            }
        }
    }
}
