/**
 * Petrel's HTTP/2 codec, pure over bytes: frames read from buffers and written into them
 * (RFC 9113), header blocks compressed and decompressed with HPACK (RFC 7541), and the field
 * rules of RFC 9113 section 8. No sockets, no threads, no clocks.
 */
module dev.petrel.http2 {
    requires transitive dev.petrel.http;

    exports dev.petrel.http2;
}
