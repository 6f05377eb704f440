/**
 * The AJP/1.3 codec, pure over bytes: packets from a front end (Apache httpd's mod_jk or
 * mod_proxy_ajp) in, request heads out; response heads, body chunks and requests for more body
 * out as packets. No sockets, no threads: the server's AJP engine drives it.
 */
package dev.petrel.ajp;
