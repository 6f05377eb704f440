package dev.petrel.server.files;

import dev.petrel.server.Response;
import dev.petrel.server.handler.FileCopy;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * A {@code 206} with several ranges: a {@code multipart/byteranges} body (RFC 9110 section
 * 14.6), each part with its {@code Content-Type} and {@code Content-Range}, its length known in
 * advance so the response carries a {@code Content-Length}.
 */
final class MultipartRanges {
    private static final SecureRandom RANDOM = new SecureRandom();

    private MultipartRanges() {}

    static void send(Response response, Path file, String type, long size, List<ByteRanges.Range> ranges, boolean head)
            throws IOException {
        byte[] random = new byte[12];
        RANDOM.nextBytes(random);
        String boundary = "petrel-" + HexFormat.of().formatHex(random); // cannot occur in a part's header lines
        byte[][] heads = new byte[ranges.size()][];
        long length = 0;
        for (int i = 0; i < ranges.size(); i++) {
            ByteRanges.Range range = ranges.get(i);
            heads[i] = ((i == 0 ? "" : "\r\n") + "--" + boundary + "\r\nContent-Type: " + type + "\r\nContent-Range: bytes "
                    + range.first() + "-" + range.last() + "/" + size + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            length += heads[i].length + range.length();
        }
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        length += tail.length;
        response.status(206).contentType("multipart/byteranges; boundary=" + boundary).contentLength(length);
        if (head) {
            response.send(new byte[0]);
            return;
        }
        try (FileChannel channel = FileChannel.open(file); OutputStream out = response.body()) {
            for (int i = 0; i < ranges.size(); i++) {
                out.write(heads[i]);
                FileCopy.copy(channel, ranges.get(i).first(), ranges.get(i).length(), out);
            }
            out.write(tail);
        }
    }
}
