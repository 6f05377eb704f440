package dev.petrel.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The negotiation of permessage-deflate (RFC 7692 section 7.1), server and client side. */
class PerMessageDeflateTest {
    private static final String PMD = "permessage-deflate";

    /** Request header values (one string per header line, "|" between lines) and the server's answer, null to decline. */
    static Stream<Arguments> offers() {
        return Stream.of(
                offer("", null),
                offer(PMD, PMD),
                offer("permessage-deflate; client_max_window_bits", PMD),
                offer("permessage-deflate; client_max_window_bits=10", PMD),
                offer("permessage-deflate; client_max_window_bits=8", PMD),
                offer("permessage-deflate; client_max_window_bits=\"12\"", PMD),
                offer("permessage-deflate; server_max_window_bits=15", "permessage-deflate; server_max_window_bits=15"),
                offer("permessage-deflate; server_max_window_bits=\"15\"", "permessage-deflate; server_max_window_bits=15"),
                // the JDK's Deflater cannot use a smaller window: declined, the next offer tried
                offer("permessage-deflate; server_max_window_bits=10", null),
                offer("permessage-deflate; server_max_window_bits=10, permessage-deflate", PMD),
                // Autobahn 13.7's offers: (no context, 8 bits), (no context), plain
                offer("permessage-deflate; server_no_context_takeover; server_max_window_bits=8, "
                        + "permessage-deflate; server_no_context_takeover, permessage-deflate", "permessage-deflate; server_no_context_takeover"),
                offer("permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                        "permessage-deflate; server_no_context_takeover; client_no_context_takeover"),
                offer("permessage-deflate; client_no_context_takeover; client_max_window_bits", "permessage-deflate; client_no_context_takeover"),
                offer("permessage-deflate;client_max_window_bits;server_no_context_takeover", "permessage-deflate; server_no_context_takeover"),
                offer("PerMessage-Deflate; Client_Max_Window_Bits; SERVER_NO_CONTEXT_TAKEOVER", "permessage-deflate; server_no_context_takeover"),
                // other extensions, several header lines, empty elements, spaces and tabs
                offer("x-webkit-deflate-frame|permessage-deflate", PMD),
                offer("foo; a=1; b=\"x\", permessage-deflate; client_max_window_bits", PMD),
                offer("  ,permessage-deflate \t; client_max_window_bits ,, ", PMD),
                offer("foo|", null),
                // invalid parameters decline the offer they are in
                offer("permessage-deflate; server_no_context_takeover; server_no_context_takeover", null),
                offer("permessage-deflate; client_max_window_bits; client_max_window_bits=10", null),
                offer("permessage-deflate; server_no_context_takeover=true", null),
                offer("permessage-deflate; client_no_context_takeover=\"x\"", null),
                offer("permessage-deflate; client_max_window_bits=7", null),
                offer("permessage-deflate; client_max_window_bits=16", null),
                offer("permessage-deflate; client_max_window_bits=08", null),
                offer("permessage-deflate; client_max_window_bits=abc", null),
                offer("permessage-deflate; server_max_window_bits", null),
                offer("permessage-deflate; server_max_window_bits=16", null),
                offer("permessage-deflate; unknown=1", null),
                offer("permessage-deflate; unknown, permessage-deflate; server_no_context_takeover", "permessage-deflate; server_no_context_takeover"),
                // broken grammar declines that element; the list goes on after the next comma outside quotes
                offer("permessage-deflate; client_max_window_bits=\"1 2\"", null),
                offer("permessage-deflate; client_max_window_bits=\"1,2\", permessage-deflate", PMD),
                offer("permessage-deflate; =1|permessage-deflate", PMD),
                offer("permessage-deflate; client_max_window_bits=\"unclosed", null),
                offer("permessage-deflate; client_max_window_bits=\"10\\", null),
                offer("permessage-deflate @", null),
                offer("permessage-deflate;", null),
                offer("permessage-deflate; a=", null),
                offer("; permessage-deflate", null));
    }

    private static Arguments offer(String values, String answer) {
        return Arguments.of(values, answer);
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @MethodSource("offers")
    void theServerAcceptsTheFirstAcceptableOffer(String values, String answer) {
        List<String> lines = Arrays.asList(values.split("\\|", -1));
        PerMessageDeflate.Negotiated negotiated = PerMessageDeflate.negotiate(lines, DeflateSettings.DEFAULT);
        if (answer == null) {
            assertThat(negotiated).isNull();
            return;
        }
        assertThat(negotiated.responseHeaderValue()).isEqualTo(answer);
        try (PerMessageDeflate serverSide = negotiated.serverSide()) {
            assertThat(serverSide.ownNoContextTakeover()).isEqualTo(answer.contains("server_no_context_takeover"));
            assertThat(serverSide.peerNoContextTakeover()).isEqualTo(answer.contains("client_no_context_takeover"));
        }
    }

    @Test
    void noHeaderOrDisabledSettingsNegotiateNothing() {
        assertThat(PerMessageDeflate.negotiate(null, DeflateSettings.DEFAULT)).isNull();
        assertThat(PerMessageDeflate.negotiate(List.of(), DeflateSettings.DEFAULT)).isNull();
        assertThat(PerMessageDeflate.negotiate(Arrays.asList(null, PMD), DeflateSettings.DEFAULT)).isNotNull();
        assertThat(PerMessageDeflate.negotiate(List.of(PMD), DeflateSettings.DISABLED)).isNull();
        assertThat(PerMessageDeflate.negotiate(List.of(PMD), null)).isNull();
    }

    @Test
    void aServerMayRefuseContextTakeoverUnasked() {
        DeflateSettings settings = DeflateSettings.DEFAULT.withServerNoContextTakeover(true);
        PerMessageDeflate.Negotiated negotiated = PerMessageDeflate.negotiate(List.of(PMD), settings);
        assertThat(negotiated.responseHeaderValue()).isEqualTo("permessage-deflate; server_no_context_takeover");
        assertThat(negotiated.serverSide().ownNoContextTakeover()).isTrue();
        negotiated.serverSide().close();
    }

    @Test
    void theClientOffersTheExtensionAndReadsTheAnswer() throws WebSocketException {
        assertThat(PerMessageDeflate.clientOffer(DeflateSettings.DEFAULT)).isEqualTo(PMD);
        DeflateSettings noContext = DeflateSettings.DEFAULT.withServerNoContextTakeover(true);
        assertThat(PerMessageDeflate.clientOffer(noContext)).isEqualTo("permessage-deflate; server_no_context_takeover");
        // what the server answers to the client's offer is what the client accepts
        for (DeflateSettings settings : List.of(DeflateSettings.DEFAULT, noContext)) {
            String response = PerMessageDeflate.negotiate(List.of(PerMessageDeflate.clientOffer(settings)), settings).responseHeaderValue();
            try (PerMessageDeflate clientSide = PerMessageDeflate.acceptResponse(response, settings)) {
                assertThat(clientSide.peerNoContextTakeover()).isEqualTo(settings.serverNoContextTakeover());
                assertThat(clientSide.ownNoContextTakeover()).isFalse();
            }
        }
        assertThat(PerMessageDeflate.acceptResponse(null, DeflateSettings.DEFAULT)).isNull();
        assertThat(PerMessageDeflate.acceptResponse("", DeflateSettings.DEFAULT)).isNull();
        assertThat(PerMessageDeflate.acceptResponse(" , ", DeflateSettings.DEFAULT)).isNull();
        try (PerMessageDeflate both = PerMessageDeflate.acceptResponse(
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10", DeflateSettings.DEFAULT)) {
            assertThat(both.ownNoContextTakeover()).isTrue();
            assertThat(both.peerNoContextTakeover()).isTrue();
        }
    }

    @Test
    void theClientFailsOnAnAnswerThatDoesNotAnswerItsOffer() {
        for (String response : List.of("permessage-deflate; client_max_window_bits=10", "permessage-deflate; client_max_window_bits",
                "permessage-deflate, permessage-deflate", "x-webkit-deflate-frame", "permessage-deflate; bogus",
                "permessage-deflate; server_max_window_bits=7", "permessage-deflate; server_no_context_takeover=1",
                "permessage-deflate @")) {
            assertThatThrownBy(() -> PerMessageDeflate.acceptResponse(response, DeflateSettings.DEFAULT)).as(response)
                    .isInstanceOfSatisfying(WebSocketException.class, e -> assertThat(e.closeCode()).isEqualTo(CloseCodes.PROTOCOL_ERROR));
        }
        assertThatThrownBy(() -> PerMessageDeflate.acceptResponse(PMD, DeflateSettings.DEFAULT.withServerNoContextTakeover(true)))
                .as("server_no_context_takeover asked for, not granted").isInstanceOf(WebSocketException.class);
        assertThatThrownBy(() -> PerMessageDeflate.acceptResponse(PMD, DeflateSettings.DISABLED))
                .as("an extension never offered").isInstanceOf(WebSocketException.class);
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> DeflateSettings.DEFAULT.withCompressionLevel(10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DeflateSettings.DEFAULT.withCompressionLevel(-2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DeflateSettings.DEFAULT.withMinSizeToCompress(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(DeflateSettings.DEFAULT.withCompressionLevel(1).withMinSizeToCompress(0))
                .isEqualTo(new DeflateSettings(true, 1, 0, false));
    }
}
