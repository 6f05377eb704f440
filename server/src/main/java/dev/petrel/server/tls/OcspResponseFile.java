package dev.petrel.server.tls;

import dev.petrel.server.config.TlsConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * Reads the OCSP response a configuration staples. Its outer shape is checked here (one DER
 * {@code OCSPResponse} filling the file, as {@code openssl ocsp -respout} writes it, with a
 * successful status): a PEM file, a truncated copy or an error response is refused with one line;
 * whether it answers for the certificate, and is still fresh, is for the client to judge, as with
 * nginx's {@code ssl_stapling_file}.
 */
final class OcspResponseFile {
    private static final int ENUMERATED = 0x0A;
    /** Responses are a few KiB; a larger file is something else. */
    private static final int MAX_BYTES = 64 * 1024;

    private OcspResponseFile() {}

    static byte[] read(Path file) throws TlsConfigException {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) throw new TlsConfigException("TLS: OCSP response " + file + ": larger than 64 KiB");
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new TlsConfigException("TLS: OCSP response " + file + ": cannot be read (" + e.getMessage() + ")", e);
        }
        String problem = problem(bytes);
        if (problem != null) throw new TlsConfigException("TLS: OCSP response " + file + ": " + problem);
        return bytes;
    }

    /**
     * What is wrong with {@code bytes} as a response to staple, or null: RFC 6960's
     * {@code OCSPResponse} is a SEQUENCE of the response status (ENUMERATED, 0 for successful)
     * and the response bytes, and nothing may follow it.
     */
    static String problem(byte[] bytes) {
        try {
            Der.Reader whole = new Der.Reader(bytes);
            byte[] response = whole.next(Der.SEQUENCE);
            if (whole.hasMore()) return "bytes follow the response";
            byte[] status = Der.sequenceOf(response).next(ENUMERATED);
            if (status.length != 1 || status[0] != 0) return "its status is not successful (" + HexFormat.of().formatHex(status) + ")";
            return null;
        } catch (IllegalArgumentException e) {
            return "not a DER OCSP response (" + e.getMessage() + "; openssl ocsp -respout writes one)";
        }
    }
}
