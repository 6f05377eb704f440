package dev.petrel.server.files;

import dev.petrel.http.HttpDates;
import dev.petrel.http.Methods;
import dev.petrel.http.PercentDecoder;
import dev.petrel.server.Handler;
import dev.petrel.server.Request;
import dev.petrel.server.Response;
import dev.petrel.server.handler.ContentCodings;
import java.io.IOException;
import java.nio.channels.FileChannel;
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
 * {@code ETag}, answering {@code 304} to {@code If-None-Match} and {@code If-Modified-Since}, and
 * byte ranges ({@code Range}, {@code If-Range}: {@code 206} with one range or
 * {@code multipart/byteranges}, {@code 416} when none can be served; {@code Accept-Ranges: bytes}).
 * A folder is served by its {@code index.html}. A file with a precompressed sibling
 * ({@code app.js.br}, {@code app.js.gz}, made at build time) is answered with the sibling to a
 * client that accepts its coding (Brotli first), with {@code Content-Encoding} and
 * {@code Vary: Accept-Encoding}; the siblings themselves are files like any other.
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
    /** Precompressed codings, in the order preferred: Brotli is smaller than gzip. */
    private static final java.util.List<String> PRECOMPRESSED = java.util.List.of("br", "gzip");
    private static final java.util.Map<String, String> CODING_SUFFIX = java.util.Map.of("br", ".br", "gzip", ".gz");

    private final Path root;
    private final Path realRoot;
    private final java.util.List<CacheRule> cacheRules;

    /** {@code Cache-Control: value} for the files whose path below the root matches {@code glob}. */
    private record CacheRule(String glob, java.nio.file.PathMatcher matcher, String value) {}

    /**
     * Serves the files under {@code root}.
     *
     * @throws IOException when {@code root} is not a readable folder
     */
    public StaticFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) throw new NoSuchFileException(root.toString(), null, "not a folder");
        this.root = root.toAbsolutePath().normalize();
        this.realRoot = root.toRealPath();
        this.cacheRules = java.util.List.of();
    }

    private StaticFiles(StaticFiles base, java.util.List<CacheRule> cacheRules) {
        this.root = base.root;
        this.realRoot = base.realRoot;
        this.cacheRules = java.util.List.copyOf(cacheRules);
    }

    /**
     * The same files, answered with {@code Cache-Control: value} when their path below the root
     * matches {@code glob} ({@code *.css}, {@code assets/**}, {@code {*.js,*.css}}: the JDK's
     * glob syntax); the first matching rule wins, and files no rule matches get no
     * {@code Cache-Control}, leaving the choice to the client's heuristics.
     *
     * @throws IllegalArgumentException when {@code glob} is not a valid pattern or {@code value} is blank
     */
    public StaticFiles cacheControl(String glob, String value) {
        if (value == null || value.isBlank() || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("Cache-Control for " + glob + " must be one non-blank line");
        }
        java.nio.file.PathMatcher matcher = java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob);
        java.util.List<CacheRule> rules = new java.util.ArrayList<>(cacheRules);
        rules.add(new CacheRule(glob, matcher, value.strip()));
        return new StaticFiles(this, rules);
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
        String type = MediaTypes.forFileName(file.getFileName().toString());
        String cache = cacheControl(file);
        if (cache != null) response.header("Cache-Control", cache);
        String coding = null;
        for (String candidate : PRECOMPRESSED) {
            Path sibling = file.resolveSibling(file.getFileName() + CODING_SUFFIX.get(candidate));
            // exists() first: most files have no sibling, and it answers that without an exception
            BasicFileAttributes siblingAttributes = Files.exists(sibling) ? readableFile(sibling) : null;
            if (siblingAttributes == null) continue;
            response.header("Vary", "Accept-Encoding"); // the answer depends on it, chosen or not
            if (coding == null && ContentCodings.accepts(request.header("Accept-Encoding"), candidate)) {
                coding = candidate;
                file = sibling;
                attributes = siblingAttributes;
            }
        }
        if (coding != null) response.header("Content-Encoding", coding);
        serve(request, response, file, attributes, type, coding);
    }


    /** The {@code Cache-Control} of the first rule matching {@code file} (below the root), or null. */
    private String cacheControl(Path file) {
        if (cacheRules.isEmpty()) return null;
        Path path = Path.of(root.relativize(file).toString()); // on the default file system, whose patterns these are
        for (CacheRule rule : cacheRules) {
            if (rule.matcher().matches(path)) return rule.value();
        }
        return null;
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

    private static void serve(Request request, Response response, Path file, BasicFileAttributes attributes, String type,
                              String coding) throws IOException {
        long size = attributes.size();
        long modifiedSecond = attributes.lastModifiedTime().toMillis() / 1000;
        // each coding is its own representation, with its own tag (RFC 9110 section 8.8.3)
        String etag = "\"" + Long.toHexString(size) + "-" + Long.toHexString(attributes.lastModifiedTime().toMillis())
                + (coding == null ? "" : "-" + coding) + "\"";
        String lastModified = HttpDates.format(modifiedSecond);
        response.header("Last-Modified", lastModified).header("ETag", etag);
        if (notModified(request, etag, modifiedSecond)) {
            response.status(304).send();
            return;
        }
        response.header("Accept-Ranges", "bytes");
        ByteRanges.Decision ranges = ifRangeHolds(request, etag, lastModified)
                ? ByteRanges.decide(request.header("Range"), size) : new ByteRanges.Decision.Whole();
        boolean head = Methods.HEAD.equals(request.method());
        switch (ranges) {
            case ByteRanges.Decision.Unsatisfiable u -> response.status(416).header("Content-Range", "bytes */" + size)
                    .send("Range Not Satisfiable\n");
            case ByteRanges.Decision.Partial(var parts) when parts.size() == 1 -> {
                ByteRanges.Range range = parts.getFirst();
                response.status(206).contentType(type).contentLength(range.length())
                        .header("Content-Range", "bytes " + range.first() + "-" + range.last() + "/" + size);
                if (head) {
                    response.send(new byte[0]);
                } else {
                    try (FileChannel channel = FileChannel.open(file)) {
                        response.sendFile(channel, range.first(), range.length());
                    }
                }
            }
            case ByteRanges.Decision.Partial(var parts) -> MultipartRanges.send(response, file, type, size, parts, head);
            case ByteRanges.Decision.Whole w -> {
                response.contentType(type).contentLength(size);
                if (head) {
                    response.send(new byte[0]);
                    return;
                }
                try (FileChannel channel = FileChannel.open(file)) {
                    response.sendFile(channel, 0, size); // zero-copy where the connection allows
                }
            }
        }
    }

    /**
     * RFC 9110 section 13.1.5: a {@code Range} counts only when {@code If-Range}, if sent, still
     * names this representation: its strong entity tag, or exactly its {@code Last-Modified} date.
     */
    private static boolean ifRangeHolds(Request request, String etag, String lastModified) {
        String ifRange = request.header("If-Range");
        if (ifRange == null) return true;
        String value = ifRange.strip();
        if (value.startsWith("\"") || value.startsWith("W/")) return value.equals(etag); // weak tags never match
        return value.equals(lastModified);
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
