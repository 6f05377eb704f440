package dev.petrel.server.files;

import dev.petrel.http.HttpDates;
import dev.petrel.http.Methods;
import dev.petrel.http.PercentDecoder;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.Locale;

/**
 * Serves files under a root folder, with {@code Content-Type}, {@code Last-Modified} and
 * {@code ETag}, answering {@code 304} to {@code If-None-Match} and {@code If-Modified-Since}.
 * A folder is served by its {@code index.html}.
 *
 * <p>Nothing outside the root is reachable. The raw path is checked before decoding: an encoded
 * slash, backslash or NUL ({@code %2f}, {@code %5c}, {@code %00}) gets 400, as does any
 * {@code .} or {@code ..} segment, encoded or not. After resolving, a file whose real path
 * (symbolic links followed) leaves the root gets 404, as do hidden files and folders (names
 * starting with a dot, except {@code .well-known}). The root may be on any file system, a zip file system included.
 */
public final class StaticFiles implements Handler {
    /** What a file answers: OPTIONS gets 204 with it, any other method 405. */
    private static final String ALLOW = "GET, HEAD, OPTIONS";

    private final Path root;
    private final Path realRoot;

    /**
     * Serves the files under {@code root}.
     *
     * @throws IOException when {@code root} is not a readable folder
     */
    public StaticFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) throw new NoSuchFileException(root.toString(), null, "not a folder");
        this.root = root.toAbsolutePath().normalize();
        this.realRoot = root.toRealPath();
    }

    /** The folder served. */
    public Path root() {
        return root;
    }

    @Override
    public void handle(Request request, Response response) throws IOException {
        String method = request.method();
        if (Methods.OPTIONS.equals(method)) {
            response.status(204).header("Allow", ALLOW).send();
            return;
        }
        if (!Methods.GET.equals(method) && !Methods.HEAD.equals(method)) {
            response.status(405).header("Allow", ALLOW).send("Method Not Allowed\n");
            return;
        }
        String relative = safeRelativePath(request.rawPath());
        if (relative == null) {
            response.status(400).send("Bad Request: path not allowed\n");
            return;
        }
        if (isHidden(relative)) {
            notFound(response);
            return;
        }
        Path file = relative.isEmpty() ? root : root.resolve(relative).normalize();
        if (!file.startsWith(root)) {
            response.status(400).send("Bad Request: path not allowed\n");
            return;
        }
        if (Files.isDirectory(file)) {
            if (!request.rawPath().endsWith("/")) {
                String query = request.query();
                response.status(301).header("Location", request.rawPath() + "/" + (query == null ? "" : "?" + query)).send();
                return;
            }
            file = file.resolve("index.html");
        }
        BasicFileAttributes attributes = readableFile(file);
        if (attributes == null) {
            notFound(response);
            return;
        }
        serve(request, response, file, attributes);
    }

    /**
     * The path below the root named by a raw request path, or {@code null} when it must be
     * refused. Decoding happens only after the encoded forms of separators are refused, so that
     * no encoding can smuggle in a segment the checks did not see.
     */
    static String safeRelativePath(String rawPath) {
        if (rawPath == null || !rawPath.startsWith("/")) return null;
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00")) return null;
        String decoded = PercentDecoder.decode(rawPath);
        if (decoded == null || decoded.indexOf('\\') >= 0 || decoded.indexOf('\0') >= 0) return null;
        StringBuilder relative = new StringBuilder();
        for (String segment : decoded.substring(1).split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) return null;
            if (segment.isEmpty()) continue; // "//" and a trailing "/" add nothing
            if (!relative.isEmpty()) relative.append('/');
            relative.append(segment);
        }
        return relative.toString();
    }

    /**
     * Whether a segment of the path names a hidden file or folder ({@code .git/config},
     * {@code .env}); {@code .well-known} (RFC 8615) is the one dot-folder meant to be served.
     */
    static boolean isHidden(String relativePath) {
        for (String segment : relativePath.split("/")) {
            if (segment.startsWith(".") && !segment.equals(".well-known")) return true;
        }
        return false;
    }

    private BasicFileAttributes readableFile(Path file) throws IOException {
        try {
            Path real = file.toRealPath();
            if (!real.startsWith(realRoot)) return null; // a symbolic link that leads out of the root
            BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return attributes.isRegularFile() && Files.isReadable(real) ? attributes : null;
        } catch (FileSystemException e) {
            // missing, or a path the file system refuses to resolve (a file used as a folder, a name
            // too long, a link loop, no permission): nothing to serve either way
            return null;
        }
    }

    private static void serve(Request request, Response response, Path file, BasicFileAttributes attributes)
            throws IOException {
        long size = attributes.size();
        long modifiedSecond = attributes.lastModifiedTime().toMillis() / 1000;
        String etag = "\"" + Long.toHexString(size) + "-" + Long.toHexString(attributes.lastModifiedTime().toMillis()) + "\"";
        String lastModified = HttpDates.format(modifiedSecond);
        response.header("Last-Modified", lastModified).header("ETag", etag);
        if (notModified(request, etag, modifiedSecond)) {
            response.status(304).send();
            return;
        }
        response.contentType(MediaTypes.forFileName(file.getFileName().toString())).contentLength(size);
        if (Methods.HEAD.equals(request.method())) {
            response.send(new byte[0]);
            return;
        }
        try (InputStream in = Files.newInputStream(file)) {
            in.transferTo(response.body());
        }
    }

    /** RFC 9110 section 13.2.2: If-None-Match wins; If-Modified-Since counts only without it. */
    private static boolean notModified(Request request, String etag, long modifiedSecond) {
        String ifNoneMatch = request.header("If-None-Match");
        if (ifNoneMatch != null) return etagMatches(ifNoneMatch, etag);
        Instant since = HttpDates.parse(request.header("If-Modified-Since"), Instant.now());
        return since != null && modifiedSecond <= since.getEpochSecond();
    }

    /** Weak comparison, as If-None-Match uses: {@code W/} prefixes are ignored. */
    private static boolean etagMatches(String header, String etag) {
        for (String candidate : header.split(",")) {
            String tag = candidate.strip();
            if (tag.equals("*")) return true;
            if (tag.startsWith("W/")) tag = tag.substring(2);
            if (tag.equals(etag)) return true;
        }
        return false;
    }

    private static void notFound(Response response) throws IOException {
        response.status(404).send("Not Found\n");
    }
}
