package dev.petrel.http;

/**
 * The checks on a head that need all of its fields: Host, message framing, persistence and
 * expectations (RFC 9112 sections 3.2, 6.1, 6.3, 9.3; RFC 9110 section 10.1.1).
 */
final class HeadSemantics {
    private static final byte[] HOST = bytes("host");
    private static final byte[] CONTENT_LENGTH = bytes("content-length");
    private static final byte[] TRANSFER_ENCODING = bytes("transfer-encoding");
    private static final byte[] CONNECTION = bytes("connection");
    private static final byte[] EXPECT = bytes("expect");

    private HeadSemantics() {}

    /**
     * Fills the derived fields of {@code head}; returns the error, or {@code null} when the head is
     * acceptable. The Host value's {@code String} comes from {@code hostText}, so a connection
     * that keeps sending the same Host gets the same {@code String} back.
     */
    static HttpError interpret(RequestHead head, HttpLimits limits, RecentText hostText) {
        HeaderFields fields = head.headers();
        byte[] bytes = fields.bytes();
        int hostCount = 0;
        int hostIndex = -1;
        long contentLength = -1;
        boolean chunked = false;
        boolean transferEncoding = false;
        for (int i = 0; i < fields.size(); i++) {
            int start = fields.valueStart(i);
            int length = fields.valueLength(i);
            if (fields.nameIs(i, HOST)) {
                hostCount++;
                hostIndex = i;
            } else if (fields.nameIs(i, CONTENT_LENGTH)) {
                long value = parseContentLength(bytes, start, length);
                if (value < 0) return HttpError.badRequest("Invalid Content-Length");
                if (contentLength >= 0 && value != contentLength) return HttpError.badRequest("Conflicting Content-Length values");
                contentLength = value;
            } else if (fields.nameIs(i, TRANSFER_ENCODING)) {
                transferEncoding = true;
                int codings = transferCodings(bytes, start, length, chunked);
                if (codings == CODINGS_INVALID) return HttpError.badRequest("Invalid Transfer-Encoding");
                if (codings == CODINGS_UNKNOWN) return new HttpError(501, "Transfer coding not implemented");
                chunked = codings == CODINGS_CHUNKED_LAST;
            } else if (fields.nameIs(i, CONNECTION)) {
                if (fields.listContains(i, "close")) head.closeRequested = true;
                if (fields.listContains(i, "keep-alive")) head.keepAliveRequested = true;
            } else if (fields.nameIs(i, EXPECT)) {
                if (head.version == HttpVersion.HTTP_1_1) {
                    if (!isHundredContinue(bytes, start, length)) return new HttpError(417, "Unsupported expectation");
                    head.expectContinue = true;
                }
            }
        }

        if (head.version == HttpVersion.HTTP_1_1 && hostCount == 0) return HttpError.badRequest("Missing Host header");
        if (hostCount > 1) return HttpError.badRequest("More than one Host header");
        String hostField = hostIndex < 0 ? "" : hostText.of(bytes, fields.valueStart(hostIndex), fields.valueLength(hostIndex));
        if (!hostField.isEmpty() && !RequestTargets.isAuthority(hostField, 0, hostField.length())) {
            return HttpError.badRequest("Invalid Host header");
        }
        head.host = head.authority != null ? head.authority : hostField;

        if (transferEncoding) {
            // A 1.0 recipient cannot have been sent chunked framing on purpose (RFC 9112 section 6.1).
            if (head.version == HttpVersion.HTTP_1_0) return HttpError.badRequest("Transfer-Encoding in an HTTP/1.0 request");
            if (contentLength >= 0) return HttpError.badRequest("Both Content-Length and Transfer-Encoding");
            if (!chunked) return HttpError.badRequest("Transfer-Encoding does not end with chunked");
            head.framing = BodyFraming.CHUNKED;
        } else if (contentLength >= 0) {
            if (contentLength > limits.maxBodySize()) return new HttpError(413, "Request body too large");
            head.framing = contentLength == 0 ? BodyFraming.NONE : BodyFraming.LENGTH;
            head.contentLength = contentLength == 0 ? -1 : contentLength;
        } else {
            head.framing = BodyFraming.NONE;
        }
        if (head.framing == BodyFraming.NONE) head.expectContinue = false; // nothing to wait for
        return null;
    }

    /**
     * A Content-Length value: 1*DIGIT, or a list of identical values (RFC 9110 section 8.6 lets a
     * recipient accept "5, 5" as 5). Returns -1 when invalid, different or too large.
     */
    static long parseContentLength(byte[] bytes, int start, int length) {
        long result = -1;
        int pos = start;
        int end = start + length;
        while (true) {
            while (pos < end && HttpChars.isOws(bytes[pos])) pos++;
            int digitsStart = pos;
            while (pos < end && bytes[pos] >= '0' && bytes[pos] <= '9') pos++;
            long value = Decimal.parse(bytes, digitsStart, pos);
            if (value < 0) return -1;
            if (result >= 0 && value != result) return -1;
            result = value;
            while (pos < end && HttpChars.isOws(bytes[pos])) pos++;
            if (pos == end) return result;
            if (bytes[pos++] != ',') return -1;
        }
    }

    private static final int CODINGS_INVALID = 0;
    private static final int CODINGS_UNKNOWN = 1;
    private static final int CODINGS_CHUNKED_LAST = 2;

    /**
     * Reads one Transfer-Encoding field value as a list of codings. Petrel implements only
     * chunked: any other coding is 501; chunked applied twice or not last is invalid.
     */
    private static int transferCodings(byte[] bytes, int start, int length, boolean chunkedSoFar) {
        int pos = start;
        int end = start + length;
        boolean chunked = chunkedSoFar;
        boolean any = false;
        while (pos < end) {
            while (pos < end && (HttpChars.isOws(bytes[pos]) || bytes[pos] == ',')) pos++;
            if (pos == end) break;
            int tokenStart = pos;
            while (pos < end && HttpChars.isTchar(bytes[pos])) pos++;
            if (pos == tokenStart) return CODINGS_INVALID;
            if (chunked) return CODINGS_INVALID; // something follows chunked
            if (!HttpChars.equalsIgnoreCase(bytes, tokenStart, pos - tokenStart, CHUNKED)) return CODINGS_UNKNOWN;
            chunked = true;
            any = true;
            while (pos < end && HttpChars.isOws(bytes[pos])) pos++;
            if (pos < end && bytes[pos] != ',') return CODINGS_INVALID; // parameters are not allowed on chunked
        }
        return any ? CODINGS_CHUNKED_LAST : CODINGS_INVALID;
    }

    private static final byte[] CHUNKED = bytes("chunked");
    private static final byte[] HUNDRED_CONTINUE = bytes("100-continue");

    private static boolean isHundredContinue(byte[] bytes, int start, int length) {
        return HttpChars.equalsIgnoreCase(bytes, start, length, HUNDRED_CONTINUE);
    }

    private static byte[] bytes(String lowerCase) {
        return lowerCase.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
