package dev.petrel.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link Http2Settings} against RFC 9113 section 6.5.2. */
class Http2SettingsTest {
    @Test
    void initialValues_section6_5_2() {
        Http2Settings s = new Http2Settings();
        assertThat(s.headerTableSize()).isEqualTo(4096);
        assertThat(s.enablePush()).isTrue();
        assertThat(s.maxConcurrentStreams()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.initialWindowSize()).isEqualTo(65_535);
        assertThat(s.maxFrameSize()).isEqualTo(16_384);
        assertThat(s.maxHeaderListSize()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void applyTakesValidValues_section6_5_2() {
        Http2Settings s = new Http2Settings();
        assertThat(s.apply(Http2Settings.HEADER_TABLE_SIZE, 0xFFFF_FFFFL)).isNull();
        assertThat(s.apply(Http2Settings.ENABLE_PUSH, 0)).isNull();
        assertThat(s.apply(Http2Settings.MAX_CONCURRENT_STREAMS, 0)).isNull();
        assertThat(s.apply(Http2Settings.INITIAL_WINDOW_SIZE, Integer.MAX_VALUE)).isNull();
        assertThat(s.apply(Http2Settings.MAX_FRAME_SIZE, Frames.MAX_MAX_FRAME_SIZE)).isNull();
        assertThat(s.apply(Http2Settings.MAX_HEADER_LIST_SIZE, 8192)).isNull();
        assertThat(s.headerTableSize()).isEqualTo(0xFFFF_FFFFL);
        assertThat(s.enablePush()).isFalse();
        assertThat(s.maxConcurrentStreams()).isZero();
        assertThat(s.initialWindowSize()).isEqualTo(Integer.MAX_VALUE);
        assertThat(s.maxFrameSize()).isEqualTo(Frames.MAX_MAX_FRAME_SIZE);
        assertThat(s.maxHeaderListSize()).isEqualTo(8192);
    }

    @Test
    void unknownSettingsAreIgnored_section6_5_2() {
        Http2Settings s = new Http2Settings();
        assertThat(s.apply(0, 5)).isNull();
        assertThat(s.apply(0x42, 0xFFFF_FFFFL)).isNull();
        assertThat(s.initialWindowSize()).isEqualTo(65_535);
    }

    @Test
    void enablePushOtherThanZeroOrOne_section6_5_2() {
        Http2Error e = new Http2Settings().apply(Http2Settings.ENABLE_PUSH, 2);
        assertThat(e.isConnectionError()).isTrue();
        assertThat(e.code()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void initialWindowSizeAboveTheMaximum_section6_5_2() {
        Http2Settings s = new Http2Settings();
        Http2Error e = s.apply(Http2Settings.INITIAL_WINDOW_SIZE, 1L << 31);
        assertThat(e.isConnectionError()).isTrue();
        assertThat(e.code()).isEqualTo(Http2ErrorCode.FLOW_CONTROL_ERROR);
        assertThat(s.initialWindowSize()).as("unchanged").isEqualTo(65_535);
    }

    @Test
    void maxFrameSizeOutsideItsRange_section6_5_2() {
        Http2Settings s = new Http2Settings();
        assertThat(s.apply(Http2Settings.MAX_FRAME_SIZE, 16_383).code()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
        assertThat(s.apply(Http2Settings.MAX_FRAME_SIZE, 1 << 24).code()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
        assertThat(s.maxFrameSize()).isEqualTo(16_384);
    }

    @Test
    void setRefusesWhatApplyRefusesAndMore() {
        Http2Settings s = new Http2Settings();
        assertThatThrownBy(() -> s.set(Http2Settings.ENABLE_PUSH, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.set(Http2Settings.MAX_FRAME_SIZE, 100)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.set(Http2Settings.INITIAL_WINDOW_SIZE, 1L << 31)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.set(7, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.set(Http2Settings.HEADER_TABLE_SIZE, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.set(Http2Settings.HEADER_TABLE_SIZE, 1L << 32)).isInstanceOf(IllegalArgumentException.class);
        s.set(Http2Settings.MAX_CONCURRENT_STREAMS, 128);
        assertThat(s.maxConcurrentStreams()).isEqualTo(128);
    }

    @Test
    void enableConnectProtocol_rfc8441_section3() {
        Http2Settings s = new Http2Settings();
        assertThat(s.enableConnectProtocol()).as("off until announced").isFalse();
        assertThat(s.apply(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1)).isNull();
        assertThat(s.enableConnectProtocol()).isTrue();
        Http2Error e = s.apply(Http2Settings.ENABLE_CONNECT_PROTOCOL, 2);
        assertThat(e.isConnectionError()).isTrue();
        assertThat(e.code()).isEqualTo(Http2ErrorCode.PROTOCOL_ERROR);
    }

    @Test
    void enableConnectProtocolIsAnnouncedOnlyWhenSet() {
        java.nio.ByteBuffer plain = java.nio.ByteBuffer.allocate(64);
        FrameWriter.settings(plain, new Http2Settings());
        assertThat(plain.position()).as("nothing announced").isEqualTo(Frames.HEADER_LENGTH);
        Http2Settings ours = new Http2Settings();
        ours.set(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1);
        java.nio.ByteBuffer frame = java.nio.ByteBuffer.allocate(64);
        FrameWriter.settings(frame, ours);
        assertThat(java.util.Arrays.copyOfRange(frame.array(), Frames.HEADER_LENGTH, frame.position()))
                .containsExactly(0, 8, 0, 0, 0, 1);
    }
}
