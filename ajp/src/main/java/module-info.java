/**
 * Petrel's AJP/1.3 codec, pure over bytes: forward-requests decoded from packets, responses
 * encoded into them. Its heads carry the HTTP codec's header fields and versions.
 */
module dev.petrel.ajp {
    requires transitive dev.petrel.http;

    exports dev.petrel.ajp;
}
