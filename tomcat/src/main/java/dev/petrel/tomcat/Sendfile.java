package dev.petrel.tomcat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.coyote.Constants;
import org.apache.coyote.Request;

/**
 * A file Catalina left for the connector to send (Tomcat's sendfile). When the request attribute
 * {@value Constants#SENDFILE_SUPPORTED_ATTR} is true, the DefaultServlet serves a large file by
 * naming it and the range in the attributes {@value Constants#SENDFILE_FILENAME_ATTR},
 * {@value Constants#SENDFILE_FILE_START_ATTR} and {@value Constants#SENDFILE_FILE_END_ATTR} (end
 * exclusive), sets the length and writes no body; the connector sends those bytes after the head,
 * as Tomcat's {@code Http11Processor} does. Here they go through Petrel's
 * {@link dev.petrel.server.Response#sendFile}, which on plain HTTP/1.1 over {@code nio} moves them
 * from the page cache to the socket ({@code sendfile(2)}) without copying them through the heap.
 *
 * @param file the file, as the servlet named it (its canonical path)
 * @param start the first byte
 * @param end one past the last byte
 */
record Sendfile(Path file, long start, long end) {

    /** What the application asked to be sent, or null when it wrote its body itself. */
    static Sendfile requested(Request request) {
        if (!(request.getAttribute(Constants.SENDFILE_FILENAME_ATTR) instanceof String name)) return null;
        long start = (Long) request.getAttribute(Constants.SENDFILE_FILE_START_ATTR);
        long end = (Long) request.getAttribute(Constants.SENDFILE_FILE_END_ATTR);
        return new Sendfile(Path.of(name), start, end);
    }

    /** Sends the range as the whole body of {@code response}, whose length the application declared. */
    void sendTo(dev.petrel.server.Response response) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            response.sendFile(channel, start, end - start);
        }
    }
}
