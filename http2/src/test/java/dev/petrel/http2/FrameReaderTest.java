package dev.petrel.http2;

import static dev.petrel.http2.FrameFeeding.assertSameHoweverFed;
import static dev.petrel.http2.FrameFeeding.bytes;
import static dev.petrel.http2.FrameFeeding.concat;
import static dev.petrel.http2.FrameFeeding.frame;
import static dev.petrel.http2.FrameFeeding.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.petrel.http.ParseStatus;
import dev.petrel.http2.FrameFeeding.Frame;
import dev.petrel.http2.FrameFeeding.Outcome;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link FrameReader} against RFC 9113, every input fed whole, split at every byte and byte by byte. */
class FrameReaderTest {
    /** A frame placed after the one under test, to show the reader goes on (or stops) correctly. */
    static final byte[] PING = frame(Frames.PING, 0, 0, bytes(1, 2, 3, 4, 5, 6, 7, 8));

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static Frame single(byte[] input) {
        Outcome outcome = assertSameHoweverFed(input);
        assertThat(outcome.failed()).as("failed: %s", outcome.lastError()).isFalse();
        assertThat(outcome.events()).hasSize(1);
        assertThat(outcome.consumed()).isEqualTo(input.length);
        return outcome.frames().getFirst();
    }

    /** Asserts a connection error with {@code code}, found without reading past the offending frame's end. */
    static Http2Error connectionError(byte[] input, Http2ErrorCode code) {
        Outcome outcome = assertSameHoweverFed(concat(input, PING));
        assertThat(outcome.failed()).as("connection error expected").isTrue();
        Http2Error error = outcome.lastError();
        assertThat(error.isConnectionError()).isTrue();
        assertThat(error.code()).as("code (%s)", error.reason()).isEqualTo(code);
        assertThat(outcome.consumed()).isLessThanOrEqualTo(input.length);
        return error;
    }

    /** Asserts a stream error with {@code code} on {@code streamId}, then that the next frame is read. */
    static void streamError(byte[] input, Http2ErrorCode code, int streamId) {
        Outcome outcome = assertSameHoweverFed(concat(input, PING));
        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.events()).hasSize(2);
        Http2Error error = outcome.events().getFirst().error();
        assertThat(error).isNotNull();
        assertThat(error.isConnectionError()).isFalse();
        assertThat(error.code()).isEqualTo(code);
        assertThat(error.streamId()).isEqualTo(streamId);
        assertThat(outcome.events().get(1).frame().type()).isEqualTo(Frames.PING);
        assertThat(outcome.consumed()).isEqualTo(input.length + PING.length);
    }

    @Test
    void nothingGivenNeedsMore() {
        FrameReader reader = new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE);
        assertThat(reader.read(ByteBuffer.allocate(0))).isEqualTo(ParseStatus.NEED_MORE);
        assertThat(reader.error()).isNull();
    }

    @Test
    void dataFrameThenTheNext_section6_1() {
        Outcome outcome = assertSameHoweverFed(concat(frame(Frames.DATA, Frames.FLAG_END_STREAM, 1, text("hello")), PING));
        assertThat(outcome.failed()).isFalse();
        Frame data = outcome.frames().getFirst();
        assertThat(data.type()).isEqualTo(Frames.DATA);
        assertThat(data.flags()).isEqualTo(Frames.FLAG_END_STREAM);
        assertThat(data.streamId()).isEqualTo(1);
        assertThat(data.length()).isEqualTo(5);
        assertThat(data.contentBytes()).isEqualTo(text("hello"));
        assertThat(outcome.frames().get(1).ping()).isEqualTo(0x0102030405060708L);
    }

    @Test
    void emptyDataFrame_section6_1() {
        Frame data = single(frame(Frames.DATA, 0, 3));
        assertThat(data.length()).isZero();
        assertThat(data.contentBytes()).isEmpty();
    }

    @Test
    void paddedDataGivesTheDataAndCountsThePadding_section6_1() {
        Frame data = single(frame(Frames.DATA, Frames.FLAG_PADDED, 1, concat(bytes(2), text("abc"), bytes(0, 0))));
        assertThat(data.contentBytes()).isEqualTo(text("abc"));
        assertThat(data.length()).as("flow control counts all of the payload").isEqualTo(6);
    }

    @Test
    void paddingMayTakeAllOfTheRest_section6_1() {
        Frame data = single(frame(Frames.DATA, Frames.FLAG_PADDED, 1, bytes(3, 0, 0, 0)));
        assertThat(data.contentBytes()).isEmpty();
        assertThat(data.length()).isEqualTo(4);
    }

    @Test
    void paddingAsLongAsThePayloadIsAConnectionError_section6_1() {
        connectionError(frame(Frames.DATA, Frames.FLAG_PADDED, 1, bytes(4, 0, 0, 0)), Http2ErrorCode.PROTOCOL_ERROR);
        connectionError(frame(Frames.DATA, Frames.FLAG_PADDED, 1, bytes(255)), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void paddedWithoutRoomForThePadLength_section4_2() {
        connectionError(frame(Frames.DATA, Frames.FLAG_PADDED, 1), Http2ErrorCode.FRAME_SIZE_ERROR);
        connectionError(frame(Frames.HEADERS, Frames.FLAG_PADDED | Frames.FLAG_END_HEADERS, 1), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void frameLargerThanMaxFrameSizeIsRefusedFromItsHeader_section4_2() {
        byte[] head = header(Frames.DEFAULT_MAX_FRAME_SIZE + 1, Frames.DATA, 0, 1);
        Outcome outcome = assertSameHoweverFed(head);
        assertThat(outcome.failed()).isTrue();
        assertThat(outcome.lastError().code()).isEqualTo(Http2ErrorCode.FRAME_SIZE_ERROR);
        assertThat(outcome.lastError().isConnectionError()).isTrue();
        assertThat(outcome.consumed()).as("decided from the 9-byte header").isEqualTo(Frames.HEADER_LENGTH);
        // whatever type: even an unknown one
        connectionError(header(Frames.MAX_MAX_FRAME_SIZE, 0x42, 0, 0), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void frameOfExactlyMaxFrameSizeIsRead_section4_2() {
        Frame data = single(frame(Frames.DATA, 0, 1, new byte[Frames.DEFAULT_MAX_FRAME_SIZE]));
        assertThat(data.length()).isEqualTo(Frames.DEFAULT_MAX_FRAME_SIZE);
    }

    @Test
    void largerMaxFrameSizeAcceptsLargerFrames_section6_5_2() {
        byte[] big = frame(Frames.DATA, 0, 1, new byte[20_000]);
        FrameReader reader = new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE);
        assertThat(FrameFeeding.feed(reader, List.of(big)).failed()).isTrue();
        reader = new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE);
        reader.maxFrameSize(20_000);
        Outcome outcome = FrameFeeding.feed(reader, FrameFeeding.cut(big, 5, 9, 100, 19_000));
        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.frames().getFirst().length()).isEqualTo(20_000);
    }

    @Test
    void maxFrameSizeOutsideTheRangeOfTheSettingIsRefused_section6_5_2() {
        assertThatThrownBy(() -> new FrameReader(16_383)).isInstanceOf(IllegalArgumentException.class);
        FrameReader reader = new FrameReader(Frames.MAX_MAX_FRAME_SIZE);
        assertThatThrownBy(() -> reader.maxFrameSize(Frames.MAX_MAX_FRAME_SIZE + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Sections 6.1, 6.2, 6.3, 6.4, 6.6, 6.10: these frames belong to a stream. */
    @ParameterizedTest
    @ValueSource(ints = {Frames.DATA, Frames.HEADERS, Frames.PRIORITY, Frames.RST_STREAM, Frames.PUSH_PROMISE, Frames.CONTINUATION})
    void streamFramesOnStreamZeroAreAConnectionError(int type) {
        byte[] payload = type == Frames.PRIORITY ? new byte[5] : new byte[4];
        connectionError(frame(type, Frames.FLAG_END_HEADERS, 0, payload), Http2ErrorCode.PROTOCOL_ERROR);
    }

    /** Sections 6.5, 6.7, 6.8: these frames belong to the connection. */
    @ParameterizedTest
    @ValueSource(ints = {Frames.SETTINGS, Frames.PING, Frames.GOAWAY})
    void connectionFramesOnAStreamAreAConnectionError(int type) {
        byte[] payload = type == Frames.SETTINGS ? new byte[6] : new byte[8];
        connectionError(frame(type, 0, 1, payload), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void windowUpdateOnAnyStream_section6_9() {
        Frame connection = single(frame(Frames.WINDOW_UPDATE, 0, 0, bytes(0, 0, 0x10, 0)));
        assertThat(connection.streamId()).isZero();
        assertThat(connection.windowIncrement()).isEqualTo(4096);
        Frame stream = single(frame(Frames.WINDOW_UPDATE, 0, 5, bytes(0xFF, 0xFF, 0xFF, 0xFF)));
        assertThat(stream.streamId()).isEqualTo(5);
        assertThat(stream.windowIncrement()).as("reserved bit ignored").isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void windowUpdateOfZero_section6_9() {
        streamError(frame(Frames.WINDOW_UPDATE, 0, 3, bytes(0, 0, 0, 0)), Http2ErrorCode.PROTOCOL_ERROR, 3);
        connectionError(frame(Frames.WINDOW_UPDATE, 0, 0, bytes(0, 0, 0, 0)), Http2ErrorCode.PROTOCOL_ERROR);
        // only the reserved bit set is still zero
        connectionError(frame(Frames.WINDOW_UPDATE, 0, 0, bytes(0x80, 0, 0, 0)), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 5, 8})
    void windowUpdateLengthOtherThanFour_section6_9(int length) {
        connectionError(frame(Frames.WINDOW_UPDATE, 0, 1, new byte[length]), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void priorityFrame_section6_3() {
        Frame priority = single(frame(Frames.PRIORITY, 0, 5, bytes(0x80, 0, 0, 3, 255)));
        assertThat(priority.exclusive()).isTrue();
        assertThat(priority.dependency()).isEqualTo(3);
        assertThat(priority.weight()).isEqualTo(256);
        Frame plain = single(frame(Frames.PRIORITY, 0, 5, bytes(0, 0, 0, 0, 0)));
        assertThat(plain.exclusive()).isFalse();
        assertThat(plain.weight()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 6, 100})
    void priorityLengthOtherThanFiveIsAStreamError_section6_3(int length) {
        streamError(frame(Frames.PRIORITY, 0, 7, new byte[length]), Http2ErrorCode.FRAME_SIZE_ERROR, 7);
    }

    @Test
    void priorityOnItself_section5_3_1() {
        streamError(frame(Frames.PRIORITY, 0, 7, bytes(0, 0, 0, 7, 15)), Http2ErrorCode.PROTOCOL_ERROR, 7);
    }

    @Test
    void rstStream_section6_4() {
        Frame rst = single(frame(Frames.RST_STREAM, 0, 3, bytes(0, 0, 0, 8)));
        assertThat(rst.rawErrorCode()).isEqualTo(8);
        FrameReader reader = new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE);
        assertThat(reader.read(ByteBuffer.wrap(frame(Frames.RST_STREAM, 0, 3, bytes(0xFF, 0, 0, 1))))).isEqualTo(ParseStatus.COMPLETE);
        assertThat(reader.rawErrorCode()).isEqualTo(0xFF000001L);
        assertThat(reader.errorCode()).as("unknown codes read as INTERNAL_ERROR, section 7").isEqualTo(Http2ErrorCode.INTERNAL_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 5, 8})
    void rstStreamLengthOtherThanFour_section6_4(int length) {
        connectionError(frame(Frames.RST_STREAM, 0, 1, new byte[length]), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void settingsWithUnknownIdsToo_section6_5() {
        Frame settings = single(frame(Frames.SETTINGS, 0, 0, bytes(0, 4, 0, 1, 0, 0, 0, 0x42, 0xFF, 0xFF, 0xFF, 0xFF)));
        assertThat(settings.settings()).containsExactly(4L, 65_536L, 0x42L, 0xFFFF_FFFFL);
        Frame empty = single(frame(Frames.SETTINGS, 0, 0));
        assertThat(empty.settings()).isEmpty();
        Frame ack = single(frame(Frames.SETTINGS, Frames.FLAG_ACK, 0));
        assertThat(ack.flags()).isEqualTo(Frames.FLAG_ACK);
    }

    @Test
    void settingsAckWithAPayload_section6_5() {
        connectionError(frame(Frames.SETTINGS, Frames.FLAG_ACK, 0, new byte[6]), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 7, 13})
    void settingsLengthNotAMultipleOfSix_section6_5(int length) {
        connectionError(frame(Frames.SETTINGS, 0, 0, new byte[length]), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void pingAndItsAck_section6_7() {
        Frame ack = single(frame(Frames.PING, Frames.FLAG_ACK, 0, bytes(0xFF, 0, 0, 0, 0, 0, 0, 1)));
        assertThat(ack.flags()).isEqualTo(Frames.FLAG_ACK);
        assertThat(ack.ping()).isEqualTo(0xFF00_0000_0000_0001L);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 7, 9, 16})
    void pingLengthOtherThanEight_section6_7(int length) {
        connectionError(frame(Frames.PING, 0, 0, new byte[length]), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void goawayWithDebugData_section6_8() {
        Frame goaway = single(frame(Frames.GOAWAY, 0, 0, concat(bytes(0x80, 0, 0, 9, 0, 0, 0, 0xb), text("calm"))));
        assertThat(goaway.lastStreamId()).as("reserved bit ignored").isEqualTo(9);
        assertThat(goaway.rawErrorCode()).isEqualTo(0xb);
        assertThat(goaway.contentBytes()).isEqualTo(text("calm"));
        FrameReader reader = new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE);
        reader.read(ByteBuffer.wrap(frame(Frames.GOAWAY, 0, 0, bytes(0, 0, 0, 9, 0, 0, 0, 0xb))));
        assertThat(reader.errorCode()).isEqualTo(Http2ErrorCode.ENHANCE_YOUR_CALM);
        assertThat(reader.payloadLength()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 7})
    void goawayShorterThanEight_section6_8(int length) {
        connectionError(frame(Frames.GOAWAY, 0, 0, new byte[length]), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void headersWithPaddingAndPriority_section6_2() {
        byte[] payload = concat(bytes(2), bytes(0x80, 0, 0, 1, 15), text("block"), bytes(0, 0));
        Frame headers = single(frame(Frames.HEADERS, Frames.FLAG_PADDED | Frames.FLAG_PRIORITY | Frames.FLAG_END_HEADERS | Frames.FLAG_END_STREAM, 3, payload));
        assertThat(headers.contentBytes()).isEqualTo(text("block"));
        assertThat(headers.exclusive()).isTrue();
        assertThat(headers.dependency()).isEqualTo(1);
        assertThat(headers.weight()).isEqualTo(16);
        assertThat(headers.expectingContinuation()).isFalse();
    }

    @Test
    void headersWithoutPriorityHaveTheDefaults_section5_3() {
        Frame headers = single(frame(Frames.HEADERS, Frames.FLAG_END_HEADERS, 3, text("block")));
        assertThat(headers.contentBytes()).isEqualTo(text("block"));
        assertThat(headers.dependency()).isZero();
        assertThat(headers.weight()).isEqualTo(16);
        assertThat(headers.exclusive()).isFalse();
    }

    @Test
    void headersPaddingLongerThanWhatFollowsThePriority_section6_2() {
        // 1 + 5 + 1 bytes, padding 2: the padding would overlap the priority fields
        byte[] payload = concat(bytes(2), bytes(0, 0, 0, 1, 15), bytes(0));
        connectionError(frame(Frames.HEADERS, Frames.FLAG_PADDED | Frames.FLAG_PRIORITY | Frames.FLAG_END_HEADERS, 3, payload),
                Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void headersTooShortForThePriorityFields_section4_2() {
        connectionError(frame(Frames.HEADERS, Frames.FLAG_PRIORITY | Frames.FLAG_END_HEADERS, 3, bytes(0, 0, 0, 1)), Http2ErrorCode.FRAME_SIZE_ERROR);
    }

    @Test
    void headersDependingOnItsOwnStream_section5_3_1() {
        byte[] headers = frame(Frames.HEADERS, Frames.FLAG_PRIORITY | Frames.FLAG_END_HEADERS, 3, concat(bytes(0, 0, 0, 3, 15), text("block")));
        streamError(headers, Http2ErrorCode.PROTOCOL_ERROR, 3);
        // the fragment stays readable so the caller can keep HPACK in step (section 4.3)
        FrameReader reader = new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE);
        assertThat(reader.read(ByteBuffer.wrap(headers))).isEqualTo(ParseStatus.ERROR);
        assertThat(new String(reader.payload(), reader.payloadOffset(), reader.payloadLength(), StandardCharsets.ISO_8859_1)).isEqualTo("block");
    }

    @Test
    void headersDependingOnItselfStillOpensItsFieldBlock_section4_3() {
        byte[] headers = frame(Frames.HEADERS, Frames.FLAG_PRIORITY, 3, concat(bytes(0, 0, 0, 3, 15), text("bl")));
        byte[] continuation = frame(Frames.CONTINUATION, Frames.FLAG_END_HEADERS, 3, text("ock"));
        Outcome outcome = assertSameHoweverFed(concat(headers, continuation));
        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.events().getFirst().error().streamId()).isEqualTo(3);
        assertThat(outcome.frames()).singleElement().extracting(Frame::type).isEqualTo(Frames.CONTINUATION);
    }

    @Test
    void fieldBlockOverContinuationFrames_section6_10() {
        byte[] input = concat(
                frame(Frames.HEADERS, Frames.FLAG_END_STREAM, 1, text("one")),
                frame(Frames.CONTINUATION, 0, 1, text("two")),
                frame(Frames.CONTINUATION, 0, 1),
                frame(Frames.CONTINUATION, Frames.FLAG_END_HEADERS, 1, text("three")),
                PING);
        Outcome outcome = assertSameHoweverFed(input);
        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.frames()).extracting(Frame::expectingContinuation).containsExactly(true, true, true, false, false);
        assertThat(outcome.frames()).extracting(Frame::type)
                .containsExactly(Frames.HEADERS, Frames.CONTINUATION, Frames.CONTINUATION, Frames.CONTINUATION, Frames.PING);
        assertThat(outcome.frames().get(3).contentBytes()).isEqualTo(text("three"));
    }

    @Test
    void anotherFrameInsideAFieldBlock_section4_3() {
        byte[] open = frame(Frames.HEADERS, 0, 1, text("one"));
        connectionError(concat(open, PING), Http2ErrorCode.PROTOCOL_ERROR);
        connectionError(concat(open, frame(Frames.DATA, 0, 1, text("x"))), Http2ErrorCode.PROTOCOL_ERROR);
        connectionError(concat(open, frame(Frames.HEADERS, Frames.FLAG_END_HEADERS, 3, text("x"))), Http2ErrorCode.PROTOCOL_ERROR);
        connectionError(concat(open, frame(Frames.CONTINUATION, Frames.FLAG_END_HEADERS, 3, text("x"))), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void unknownFrameInsideAFieldBlock_section5_5() {
        connectionError(concat(frame(Frames.HEADERS, 0, 1, text("one")), frame(0x42, 0, 1, text("x"))), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void continuationWithoutAnOpenBlock_section6_10() {
        connectionError(frame(Frames.CONTINUATION, Frames.FLAG_END_HEADERS, 1, text("x")), Http2ErrorCode.PROTOCOL_ERROR);
        connectionError(concat(frame(Frames.HEADERS, Frames.FLAG_END_HEADERS, 1, text("one")),
                frame(Frames.CONTINUATION, 0, 1, text("x"))), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void pushPromiseOpensABlockToo_section6_6() {
        byte[] payload = concat(bytes(1), bytes(0x80, 0, 0, 2), text("blk"), bytes(0));
        byte[] input = concat(frame(Frames.PUSH_PROMISE, Frames.FLAG_PADDED, 1, payload),
                frame(Frames.CONTINUATION, Frames.FLAG_END_HEADERS, 1, text("more")));
        Outcome outcome = assertSameHoweverFed(input);
        assertThat(outcome.failed()).isFalse();
        Frame push = outcome.frames().getFirst();
        assertThat(push.promisedStreamId()).as("reserved bit ignored").isEqualTo(2);
        assertThat(push.contentBytes()).isEqualTo(text("blk"));
        assertThat(push.expectingContinuation()).isTrue();
        assertThat(outcome.frames().get(1).expectingContinuation()).isFalse();
    }

    @Test
    void pushPromiseTooShortOrOverPadded_section6_6() {
        connectionError(frame(Frames.PUSH_PROMISE, Frames.FLAG_END_HEADERS, 1, bytes(0, 0, 2)), Http2ErrorCode.FRAME_SIZE_ERROR);
        connectionError(frame(Frames.PUSH_PROMISE, Frames.FLAG_END_HEADERS | Frames.FLAG_PADDED, 1, bytes(1, 0, 0, 0, 2)),
                Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void unknownTypesAreCompleteWithTheirRawPayload_section4_1() {
        Outcome outcome = assertSameHoweverFed(concat(frame(0xFA, 0xFF, 0x8000_0005, text("opaque")), PING));
        assertThat(outcome.failed()).isFalse();
        Frame unknown = outcome.frames().getFirst();
        assertThat(unknown.type()).isEqualTo(0xFA);
        assertThat(unknown.flags()).isEqualTo(0xFF);
        assertThat(unknown.streamId()).isEqualTo(5);
        assertThat(unknown.contentBytes()).isEqualTo(text("opaque"));
    }

    @Test
    void reservedBitOfTheStreamIdIsIgnored_section4_1() {
        Frame data = single(frame(Frames.DATA, 0, 0x8000_0001, text("x")));
        assertThat(data.streamId()).isEqualTo(1);
        // a stream id of only the reserved bit is stream 0
        connectionError(frame(Frames.DATA, 0, 0x8000_0000, text("x")), Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void undefinedFlagsAreKeptButMeanNothing_section4_1() {
        // PADDED and PRIORITY mean nothing on SETTINGS or PING
        Frame ping = single(frame(Frames.PING, Frames.FLAG_PADDED | Frames.FLAG_PRIORITY, 0, new byte[8]));
        assertThat(ping.flags()).isEqualTo(Frames.FLAG_PADDED | Frames.FLAG_PRIORITY);
        Frame data = single(frame(Frames.DATA, Frames.FLAG_PRIORITY, 1, text("ab")));
        assertThat(data.contentBytes()).isEqualTo(text("ab"));
    }

    @Test
    void aManyFrameStreamReadInOddPieces() {
        byte[] input = concat(
                frame(Frames.SETTINGS, 0, 0, bytes(0, 3, 0, 0, 0, 100)),
                frame(Frames.WINDOW_UPDATE, 0, 0, bytes(0, 1, 0, 0)),
                frame(Frames.HEADERS, Frames.FLAG_END_HEADERS, 1, text("h")),
                frame(Frames.DATA, Frames.FLAG_END_STREAM, 1, new byte[300]),
                frame(Frames.RST_STREAM, 0, 1, bytes(0, 0, 0, 8)),
                frame(Frames.GOAWAY, 0, 0, new byte[8]));
        Outcome whole = assertSameHoweverFed(input);
        assertThat(whole.frames()).extracting(Frame::type).containsExactly(
                Frames.SETTINGS, Frames.WINDOW_UPDATE, Frames.HEADERS, Frames.DATA, Frames.RST_STREAM, Frames.GOAWAY);
        for (int step = 2; step < 40; step += 3) {
            int[] cuts = new int[input.length / step];
            for (int i = 0; i < cuts.length; i++) cuts[i] = (i + 1) * step;
            assertThat(FrameFeeding.feed(new FrameReader(Frames.DEFAULT_MAX_FRAME_SIZE), FrameFeeding.cut(input, cuts))).isEqualTo(whole);
        }
    }
}
