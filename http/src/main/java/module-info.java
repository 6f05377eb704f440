/**
 * Petrel's HTTP/1.1 codec, pure over bytes: request heads and chunked bodies parsed from buffers,
 * response heads and chunks encoded into them. No sockets, no threads, no clocks but an injected one.
 */
module dev.petrel.http {
    exports dev.petrel.http;
}
