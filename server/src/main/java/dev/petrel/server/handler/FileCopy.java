package dev.petrel.server.handler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Copies a file's bytes into a response body where they cannot go to the socket directly. */
public final class FileCopy {
    private static final int CHUNK = 64 * 1024;

    private FileCopy() {}

    /**
     * Writes {@code count} bytes of {@code file} from {@code position} to {@code out}, reading at
     * those offsets (the channel's own position is left alone, so parts of one channel may be copied
     * in any order).
     *
     * @throws IOException when the file ends before {@code count} bytes (it changed while served)
     */
    public static void copy(FileChannel file, long position, long count, OutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(1, count)));
        long left = count;
        while (left > 0) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), left));
            int n = file.read(buffer, position);
            if (n < 0) throw new IOException("the file ended " + left + " bytes short (changed while sent)");
            out.write(buffer.array(), 0, n);
            position += n;
            left -= n;
        }
    }
}
