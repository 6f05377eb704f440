/*
 * ws-echo.c - the do-nothing WebSocket echo: the floor the benchmark lab's websocket scenario subtracts.
 *
 * Build:  gcc -O2 -Wall -Wextra -o ws-echo ws-echo.c     (the lab builds bench/target/baseline/ws-echo itself)
 * Run:    ./ws-echo PORT                                 (listens on 127.0.0.1:PORT; SIGTERM or SIGINT stops it, exit 0)
 *
 * The same shape as dummy.c, the HTTP floor: one thread, one level-triggered epoll set, non-blocking
 * sockets, nothing but what the lab's clients need. Over HTTP/1.1, for every complete request head:
 *   "GET /ws/echo " with a Sec-WebSocket-Key  ->  101 Switching Protocols with its Sec-WebSocket-Accept
 *                                                (SHA-1 and base64 below), no extension, no subprotocol;
 *                                                the connection speaks WebSocket from the next byte on
 *   anything else                             ->  "HelloWorld", text/plain;charset=UTF-8, as dummy.c answers
 *                                                (the lab's readiness check and response sample)
 * Over WebSocket (RFC 6455), frame by frame as the bytes arrive, without waiting for a whole frame or
 * message: a data frame (text, binary, continuation) goes back with the same FIN bit, opcode and length,
 * unmasked, its payload unmasked straight into the output as it is read, so a message of any size
 * costs no memory of its own (no message limit: at least the 1 MiB the scenario asks); a ping is
 * answered with a pong carrying its payload, a pong is dropped, a close is echoed with its payload and
 * the connection closed once it is written. An unmasked frame, reserved bits, an unknown opcode, or a
 * fragmented or over-long control frame closes the connection at once. Text is not checked for UTF-8
 * and fragments are not checked for order: this is the floor, the least a server can do per frame.
 * When the peer does not read (EAGAIN), or more than OUT_HIGH bytes wait to be written, the connection
 * stops reading until EPOLLOUT has drained its output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define IN_CAP 16384          /* bytes of input a connection buffers; a longer request head closes it */
#define OUT_HIGH (256 * 1024) /* output waiting beyond this stops reading until it drains */
#define MAX_EVENTS 256
#define ECHO_PATH "/ws/echo"
#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#define HELLO_RESPONSE "HTTP/1.1 200 OK\r\n" \
                       "Content-Type: text/plain;charset=UTF-8\r\n" \
                       "Content-Length: 10\r\n" \
                       "Date: Sun, 22 Nov 2026 12:00:00 GMT\r\n" \
                       "\r\n" \
                       "HelloWorld"

enum { OP_CLOSE = 0x8, OP_PING = 0x9, OP_PONG = 0xA };

struct conn {
    int fd;
    uint32_t events;             /* what epoll waits for now */
    int closing;                 /* close once the output is written */
    int upgraded;                /* speaks WebSocket */
    /* the frame being read, once upgraded */
    int in_payload;              /* its header is read; payload_left bytes of payload to come */
    uint64_t payload_left;
    unsigned mask_at;            /* index into mask of the next payload byte */
    uint8_t mask[4];
    uint8_t opcode;
    uint8_t control[125];        /* a ping's or close's payload, echoed once whole */
    size_t control_len;
    /* output: out[out_off, out_len) waits to be written */
    char *out;
    size_t out_off, out_len, out_cap;
    struct conn *prev, *next;    /* every open connection, to free them on exit */
    size_t in_len;
    char in[IN_CAP];
};

static int epfd = -1;
static int listen_fd = -1;
static int spare_fd = -1;        /* kept open to accept-and-close when out of descriptors */
static struct conn *conns;
static volatile sig_atomic_t stop;

static void on_signal(int sig) {
    (void)sig;
    stop = 1;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

/* ---- SHA-1 (FIPS 180-4), for the accept key only ---- */

static uint32_t rotl(uint32_t x, int n) {
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const uint8_t block[64]) {
    uint32_t w[80];
    for (int t = 0; t < 16; t++) {
        w[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 | (uint32_t)block[4 * t + 2] << 8 | block[4 * t + 3];
    }
    for (int t = 16; t < 80; t++) w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999;
        } else if (t < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1;
        } else if (t < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDC;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6;
        }
        uint32_t temp = rotl(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = temp;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

/* SHA-1 of the len bytes at data (at most 119: one or two blocks with the padding) into digest. */
static void sha1_short(const uint8_t *data, size_t len, uint8_t digest[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    uint8_t blocks[128];
    memset(blocks, 0, sizeof blocks);
    memcpy(blocks, data, len);
    blocks[len] = 0x80;
    size_t total = len + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) blocks[total - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t off = 0; off < total; off += 64) sha1_block(h, blocks + off);
    for (int i = 0; i < 5; i++) {
        digest[4 * i] = (uint8_t)(h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)h[i];
    }
}

/* base64 of the 20 bytes of a digest: 28 characters and a NUL into out. */
static void base64_digest(const uint8_t in[20], char out[29]) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int o = 0;
    for (int i = 0; i < 20; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < 20 ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < 20 ? in[i + 2] : 0);
        out[o++] = alphabet[(v >> 18) & 63];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = i + 1 < 20 ? alphabet[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < 20 ? alphabet[v & 63] : '=';
    }
    out[o] = '\0';
}

/* ---- connections ---- */

static void set_events(struct conn *c, uint32_t events) {
    if (c->events == events) return;
    struct epoll_event ev = {.events = events, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) die("epoll_ctl MOD");
    c->events = events;
}

static void close_conn(struct conn *c) {
    close(c->fd); /* also removes it from the epoll set */
    if (c->prev) c->prev->next = c->next; else conns = c->next;
    if (c->next) c->next->prev = c->prev;
    free(c->out);
    free(c);
}

/* Room for n more bytes of output; the pointer to write them at. */
static char *out_reserve(struct conn *c, size_t n) {
    if (c->out_off > 0 && c->out_off == c->out_len) c->out_off = c->out_len = 0;
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 512;
        while (cap < c->out_len + n) cap *= 2;
        char *grown = realloc(c->out, cap);
        if (!grown) die("realloc");
        c->out = grown;
        c->out_cap = cap;
    }
    return c->out + c->out_len;
}

static void out_put(struct conn *c, const void *bytes, size_t n) {
    memcpy(out_reserve(c, n), bytes, n);
    c->out_len += n;
}

/* A server frame's header: FIN and opcode as in first, the length, no mask. */
static void out_frame_header(struct conn *c, uint8_t first, uint64_t len) {
    uint8_t header[10];
    size_t n = 0;
    header[n++] = first;
    if (len < 126) {
        header[n++] = (uint8_t)len;
    } else if (len <= 0xFFFF) {
        header[n++] = 126;
        header[n++] = (uint8_t)(len >> 8);
        header[n++] = (uint8_t)len;
    } else {
        header[n++] = 127;
        for (int i = 7; i >= 0; i--) header[n++] = (uint8_t)(len >> (8 * i));
    }
    out_put(c, header, n);
}

/* Whether the header line [line, end) is named name (lower case); sets *value past the colon and blanks. */
static int header_is(const char *line, const char *end, const char *name, const char **value) {
    size_t n = strlen(name);
    if ((size_t)(end - line) <= n || line[n] != ':' || strncasecmp(line, name, n) != 0) return 0;
    const char *v = line + n + 1;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    *value = v;
    return 1;
}

/*
 * Answers the request heads in the input until one upgrades the connection, the input runs out or a
 * response ends the connection. Returns the offset of the first byte not consumed.
 */
static size_t parse_requests(struct conn *c) {
    size_t pos = 0;
    while (!c->closing && !c->upgraded) {
        const char *head = c->in + pos;
        const char *end = memmem(head, c->in_len - pos, "\r\n\r\n", 4);
        if (!end) break;
        const char *line_end = memmem(head, (size_t)(end + 2 - head), "\r\n", 2);
        int echo_path = (size_t)(line_end - head) > strlen("GET " ECHO_PATH " ")
                        && memcmp(head, "GET " ECHO_PATH " ", strlen("GET " ECHO_PATH " ")) == 0;
        const char *key = NULL, *key_end = NULL;
        int ask_close = 0;
        for (const char *line = line_end + 2; line < end + 2;) {
            const char *next = memmem(line, (size_t)(end + 2 - line), "\r\n", 2);
            const char *value;
            if (header_is(line, next, "sec-websocket-key", &value)) {
                key = value;
                key_end = next;
                while (key_end > key && (key_end[-1] == ' ' || key_end[-1] == '\t')) key_end--;
            } else if (header_is(line, next, "connection", &value)) {
                ask_close |= memmem(value, (size_t)(next - value), "close", 5) != NULL;
            }
            line = next + 2;
        }
        pos = (size_t)(end + 4 - c->in);
        if (echo_path && key && key_end - key == 24) {
            uint8_t material[24 + sizeof WS_GUID];
            memcpy(material, key, 24);
            memcpy(material + 24, WS_GUID, sizeof WS_GUID - 1);
            uint8_t digest[20];
            sha1_short(material, 24 + sizeof WS_GUID - 1, digest);
            char accept[29];
            base64_digest(digest, accept);
            char response[160];
            int n = snprintf(response, sizeof response,
                             "HTTP/1.1 101 Switching Protocols\r\n"
                             "Upgrade: websocket\r\n"
                             "Connection: Upgrade\r\n"
                             "Sec-WebSocket-Accept: %s\r\n"
                             "\r\n", accept);
            out_put(c, response, (size_t)n);
            c->upgraded = 1;
        } else {
            out_put(c, HELLO_RESPONSE, sizeof HELLO_RESPONSE - 1);
            if (ask_close) c->closing = 1;
        }
    }
    return c->closing ? c->in_len : pos;
}

/*
 * Echoes the frames in the input from pos on, as far as they have come, until the input runs out,
 * the output passes OUT_HIGH or the session ends. Returns the offset of the first byte not consumed,
 * or (size_t)-1 when the client broke the protocol.
 */
static size_t echo_frames(struct conn *c, size_t pos) {
    while (!c->closing && c->out_len - c->out_off < OUT_HIGH) {
        if (!c->in_payload) {
            size_t have = c->in_len - pos;
            if (have < 2) break;
            uint8_t first = (uint8_t)c->in[pos], second = (uint8_t)c->in[pos + 1];
            if (!(second & 0x80) || (first & 0x70)) return (size_t)-1;   /* unmasked, or reserved bits */
            size_t length_bytes = (second & 0x7F) == 126 ? 2 : (second & 0x7F) == 127 ? 8 : 0;
            size_t header_len = 2 + length_bytes + 4;
            if (have < header_len) break;
            uint8_t opcode = first & 0x0F;
            int control = (opcode & 0x8) != 0;
            if (opcode > 0x2 && opcode != OP_CLOSE && opcode != OP_PING && opcode != OP_PONG) return (size_t)-1;
            uint64_t len = second & 0x7F;
            if (length_bytes == 2) {
                len = (uint64_t)(uint8_t)c->in[pos + 2] << 8 | (uint8_t)c->in[pos + 3];
            } else if (length_bytes == 8) {
                len = 0;
                for (int i = 0; i < 8; i++) len = len << 8 | (uint8_t)c->in[pos + 2 + i];
            }
            if (control && (!(first & 0x80) || len > 125)) return (size_t)-1;
            memcpy(c->mask, c->in + pos + 2 + length_bytes, 4);
            pos += header_len;
            c->opcode = opcode;
            c->in_payload = 1;
            c->payload_left = len;
            c->mask_at = 0;
            c->control_len = 0;
            if (!control) out_frame_header(c, first, len); /* the same FIN and opcode, unmasked */
        }
        size_t have = c->in_len - pos;
        size_t take = have < c->payload_left ? have : (size_t)c->payload_left;
        const uint8_t *from = (const uint8_t *)c->in + pos;
        uint8_t *to = (c->opcode & 0x8) ? c->control + c->control_len : (uint8_t *)out_reserve(c, take);
        for (size_t i = 0; i < take; i++) to[i] = from[i] ^ c->mask[(c->mask_at + i) & 3];
        c->mask_at = (unsigned)((c->mask_at + take) & 3);
        if (c->opcode & 0x8) c->control_len += take; else c->out_len += take;
        pos += take;
        c->payload_left -= take;
        if (c->payload_left > 0) break; /* the rest of the payload has not come yet */
        c->in_payload = 0;
        if (c->opcode == OP_PING || c->opcode == OP_CLOSE) {
            out_frame_header(c, (uint8_t)(0x80 | (c->opcode == OP_PING ? OP_PONG : OP_CLOSE)), c->control_len);
            out_put(c, c->control, c->control_len);
            if (c->opcode == OP_CLOSE) c->closing = 1; /* what follows a close is ignored */
        }
    }
    return c->closing ? c->in_len : pos;
}

/* Writes the output. Returns 1 when it is empty, 0 when the socket is full, -1 on error. */
static int flush(struct conn *c) {
    while (c->out_off < c->out_len) {
        ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -1;
        }
        c->out_off += (size_t)n;
    }
    c->out_off = c->out_len = 0;
    if (c->out_cap > IN_CAP) { /* a large message passed: an idle connection keeps no large buffer */
        free(c->out);
        c->out = NULL;
        c->out_cap = 0;
    }
    return 1;
}

/* Answers what the input holds, writes, and waits for input or for room to write. */
static void serve(struct conn *c) {
    for (;;) {
        size_t pos = 0;
        if (!c->upgraded) pos = parse_requests(c);
        if (c->upgraded && !c->closing) pos = echo_frames(c, pos);
        if (pos == (size_t)-1) {
            close_conn(c);
            return;
        }
        memmove(c->in, c->in + pos, c->in_len - pos);
        c->in_len -= pos;
        int flushed = flush(c);
        if (flushed < 0) {
            close_conn(c);
            return;
        }
        if (flushed == 0) {
            set_events(c, EPOLLOUT); /* stop reading until the peer takes what it was sent */
            return;
        }
        if (c->closing) {
            shutdown(c->fd, SHUT_WR);
            close_conn(c);
            return;
        }
        /* drained: go on only when the input still holds a whole frame header or more */
        if (!c->upgraded || c->in_len < 2) break;
        if (!c->in_payload && c->in_len < 14) break;
    }
    set_events(c, EPOLLIN);
}

static void on_readable(struct conn *c) {
    if (c->in_len == IN_CAP) { /* a head longer than the buffer: not a client of this benchmark */
        close_conn(c);
        return;
    }
    ssize_t n = read(c->fd, c->in + c->in_len, IN_CAP - c->in_len);
    if (n > 0) {
        c->in_len += (size_t)n;
        serve(c);
    } else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        close_conn(c);
    }
}

static void on_accept(void) {
    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if ((errno == EMFILE || errno == ENFILE) && spare_fd >= 0) {
                /* out of descriptors: take the oldest pending connection and refuse it, or the listen
                 * socket stays readable and the loop spins */
                close(spare_fd);
                int refused = accept(listen_fd, NULL, NULL);
                if (refused >= 0) close(refused);
                spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
                continue;
            }
            return; /* EAGAIN, or nothing to be done now */
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        /* malloc, not calloc: the input buffer's pages stay untouched, so not resident, until bytes come */
        struct conn *c = malloc(sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        memset(c, 0, offsetof(struct conn, in));
        c->fd = fd;
        c->events = EPOLLIN;
        c->next = conns;
        if (conns) conns->prev = c;
        conns = c;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) close_conn(c);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PORT\n", argv[0]);
        return 2;
    }
    char *stop_char;
    long port = strtol(argv[1], &stop_char, 10);
    if (*stop_char || port < 1 || port > 65535) {
        fprintf(stderr, "invalid port: %s\n", argv[1]);
        return 2;
    }

    /* as many connections as the hard limit allows */
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }

    /* SIGTERM and SIGINT are blocked except inside epoll_pwait, so a stop is never missed */
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigset_t blocked, during_wait;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGTERM);
    sigaddset(&blocked, SIGINT);
    sigprocmask(SIG_BLOCK, &blocked, &during_wait);
    sigdelset(&during_wait, SIGTERM);
    sigdelset(&during_wait, SIGINT);

    listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listen_fd < 0) die("socket");
    int one = 1;
    setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listen_fd, (struct sockaddr *)&addr, sizeof addr) < 0) die("bind");
    if (listen(listen_fd, SOMAXCONN) < 0) die("listen");
    spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) die("epoll_create1");
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, listen_fd, &lev) < 0) die("epoll_ctl ADD");
    fprintf(stderr, "ws-echo listening on http://127.0.0.1:%ld/ (WebSocket echo at " ECHO_PATH ")\n", port);

    struct epoll_event events[MAX_EVENTS];
    while (!stop) {
        int n = epoll_pwait(epfd, events, MAX_EVENTS, -1, &during_wait);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_pwait");
        }
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            uint32_t ev = events[i].events;
            if (!c) {
                on_accept();
            } else if (ev & EPOLLOUT) {
                int flushed = flush(c);
                if (flushed < 0) close_conn(c);
                else if (flushed > 0) serve(c); /* drained: echo what waited in the input, read again */
            } else if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                on_readable(c); /* a hang-up or error shows as a read of 0 or -1 */
            }
        }
    }

    while (conns) close_conn(conns);
    close(listen_fd);
    close(epfd);
    if (spare_fd >= 0) close(spare_fd);
    return 0;
}
