/*
 * dummy.c - the do-nothing HTTP/1.1 server: the floor the benchmark lab subtracts (seed 004's "dummy").
 *
 * Build:  gcc -O2 -Wall -Wextra -o dummy dummy.c      (the lab builds bench/target/baseline/dummy itself)
 * Run:    ./dummy PORT PAGE_FILE                        (listens on 127.0.0.1:PORT; SIGTERM or SIGINT stops it, exit 0)
 *
 * One thread, one level-triggered epoll set, non-blocking sockets. For every complete request head
 * ("...\r\n\r\n") in a connection's input - pipelined heads and heads split across reads included -
 * it queues one fixed, prebuilt response:
 *   request line starting "GET /page "  ->  PAGE_FILE's bytes, text/html;charset=UTF-8
 *   anything else                       ->  "HelloWorld", text/plain;charset=UTF-8 (a HEAD request: the head alone)
 * Headers: status line, Content-Type, Content-Length, a fixed Date, and "Connection: keep-alive" for an
 * HTTP/1.0 request that asked for keep-alive. An HTTP/1.0 request without keep-alive, or any request with
 * "Connection: close", gets its response and then the connection is closed. Request bodies are not
 * expected; a Content-Length body is skipped. Responses are never copied: the output queue holds
 * pointers into the four prebuilt responses, so steady state allocates nothing. When the peer does not
 * read (EAGAIN), the connection stops reading until EPOLLOUT has drained its queue.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define IN_CAP 8192    /* bytes of input a connection buffers; a longer head closes the connection */
#define MAX_QUEUE 16   /* responses queued per connection before it must flush */
#define MAX_EVENTS 256
#define DATE "Sun, 22 Nov 2026 12:00:00 GMT"

enum { HELLO = 0, PAGE = 1 };

struct response {
    char *bytes;
    size_t len;
    size_t head_len; /* a HEAD request gets only this much */
};

/* [HELLO|PAGE][plain|with "Connection: keep-alive"] */
static struct response responses[2][2];

struct conn {
    int fd;
    uint32_t events;            /* what epoll waits for now */
    int closing;                /* close once the queue is written */
    size_t in_len;
    size_t skip;                /* request body bytes still to drop */
    int out_n;
    struct iovec out[MAX_QUEUE];
    struct conn *prev, *next;   /* every open connection, to free them on exit */
    char in[IN_CAP];
};

static int epfd = -1;
static int listen_fd = -1;
static int spare_fd = -1;       /* kept open to accept-and-close when out of descriptors */
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

static char *build(const char *type, const char *body, size_t body_len, int keep_alive, size_t *len,
                   size_t *head_len) {
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 200 OK\r\n"
                     "Content-Type: %s\r\n"
                     "Content-Length: %zu\r\n"
                     "Date: " DATE "\r\n"
                     "%s"
                     "\r\n",
                     type, body_len, keep_alive ? "Connection: keep-alive\r\n" : "");
    char *bytes = malloc((size_t)n + body_len);
    if (!bytes) die("malloc");
    memcpy(bytes, head, (size_t)n);
    memcpy(bytes + n, body, body_len);
    *len = (size_t)n + body_len;
    *head_len = (size_t)n;
    return bytes;
}

static char *read_file(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) die(path);
    struct stat st;
    if (fstat(fd, &st) < 0) die(path);
    char *data = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
    if (!data) die("malloc");
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, data + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) die(path);
        got += (size_t)n;
    }
    close(fd);
    *len = got;
    return data;
}

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
    free(c);
}

/* Whether the comma-separated header value [v, end) holds the token tok (case-insensitive). */
static int has_token(const char *v, const char *end, const char *tok) {
    size_t tok_len = strlen(tok);
    while (v < end) {
        while (v < end && (*v == ' ' || *v == '\t' || *v == ',')) v++;
        const char *start = v;
        while (v < end && *v != ',') v++;
        const char *stop_at = v;
        while (stop_at > start && (stop_at[-1] == ' ' || stop_at[-1] == '\t')) stop_at--;
        if ((size_t)(stop_at - start) == tok_len && strncasecmp(start, tok, tok_len) == 0) return 1;
    }
    return 0;
}

/* Whether the header line [line, end) is named name (lower case); sets *value past the colon. */
static int header_is(const char *line, const char *end, const char *name, const char **value) {
    size_t n = strlen(name);
    if ((size_t)(end - line) <= n || line[n] != ':' || strncasecmp(line, name, n) != 0) return 0;
    *value = line + n + 1;
    return 1;
}

/*
 * Queues a response for each complete head in the input, until the input runs out, the queue is full or
 * a response ends the connection. Returns 1 when it stopped on a full queue (more may be parsable).
 */
static int parse_requests(struct conn *c) {
    size_t pos = 0;
    int full = 0;
    while (!c->closing) {
        if (c->skip > 0) {
            size_t k = c->in_len - pos < c->skip ? c->in_len - pos : c->skip;
            pos += k;
            c->skip -= k;
            if (c->skip > 0) break;
        }
        if (c->out_n == MAX_QUEUE) {
            full = 1;
            break;
        }
        const char *head = c->in + pos;
        const char *end = memmem(head, c->in_len - pos, "\r\n\r\n", 4);
        if (!end) break;

        const char *line_end = memmem(head, (size_t)(end + 2 - head), "\r\n", 2);
        int page = (size_t)(line_end - head) >= 10 && memcmp(head, "GET /page ", 10) == 0;
        int head_only = (size_t)(line_end - head) >= 5 && memcmp(head, "HEAD ", 5) == 0;
        int http10 = line_end - head >= 8 && memcmp(line_end - 8, "HTTP/1.0", 8) == 0;
        int ask_close = 0, ask_keep_alive = 0;
        size_t content_length = 0;
        for (const char *line = line_end + 2; line < end + 2;) {
            const char *next = memmem(line, (size_t)(end + 2 - line), "\r\n", 2);
            const char *value;
            if (header_is(line, next, "connection", &value)) {
                ask_close |= has_token(value, next, "close");
                ask_keep_alive |= has_token(value, next, "keep-alive");
            } else if (header_is(line, next, "content-length", &value)) {
                content_length = 0;
                for (; value < next; value++) {
                    if (*value >= '0' && *value <= '9') content_length = content_length * 10 + (size_t)(*value - '0');
                }
            }
            line = next + 2;
        }
        int keep_alive = !ask_close && (!http10 || ask_keep_alive);
        struct response *r = &responses[page ? PAGE : HELLO][http10 && keep_alive];
        c->out[c->out_n].iov_base = r->bytes;
        c->out[c->out_n].iov_len = head_only ? r->head_len : r->len;
        c->out_n++;
        pos = (size_t)(end + 4 - c->in);
        c->skip = content_length;
        if (!keep_alive) c->closing = 1; /* what follows on this connection is ignored */
    }
    if (c->closing) pos = c->in_len;
    memmove(c->in, c->in + pos, c->in_len - pos);
    c->in_len -= pos;
    return full;
}

/* Writes the queue. Returns 1 when it is empty, 0 when the socket is full, -1 on error. */
static int flush(struct conn *c) {
    while (c->out_n > 0) {
        ssize_t n = writev(c->fd, c->out, c->out_n);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
            return -1;
        }
        size_t left = (size_t)n;
        int done = 0;
        while (done < c->out_n && left >= c->out[done].iov_len) left -= c->out[done++].iov_len;
        if (done < c->out_n) {
            c->out[done].iov_base = (char *)c->out[done].iov_base + left;
            c->out[done].iov_len -= left;
        }
        memmove(c->out, c->out + done, (size_t)(c->out_n - done) * sizeof c->out[0]);
        c->out_n -= done;
    }
    return 1;
}

/* Answers what the input holds, writes, and waits for input or for room to write. */
static void serve(struct conn *c) {
    for (;;) {
        int more = parse_requests(c);
        int flushed = flush(c);
        if (flushed < 0) {
            close_conn(c);
            return;
        }
        if (flushed == 0) {
            set_events(c, EPOLLOUT); /* stop reading until the peer takes what it asked for */
            return;
        }
        if (c->closing) {
            shutdown(c->fd, SHUT_WR);
            close_conn(c);
            return;
        }
        if (!more) break;
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
        struct conn *c = malloc(sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->fd = fd;
        c->events = EPOLLIN;
        c->closing = 0;
        c->in_len = 0;
        c->skip = 0;
        c->out_n = 0;
        c->prev = NULL;
        c->next = conns;
        if (conns) conns->prev = c;
        conns = c;
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) close_conn(c);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s PORT PAGE_FILE\n", argv[0]);
        return 2;
    }
    char *stop_char;
    long port = strtol(argv[1], &stop_char, 10);
    if (*stop_char || port < 1 || port > 65535) {
        fprintf(stderr, "invalid port: %s\n", argv[1]);
        return 2;
    }

    size_t page_len;
    char *page = read_file(argv[2], &page_len);
    for (int keep_alive = 0; keep_alive < 2; keep_alive++) {
        struct response *hello = &responses[HELLO][keep_alive], *page_response = &responses[PAGE][keep_alive];
        hello->bytes = build("text/plain;charset=UTF-8", "HelloWorld", 10, keep_alive, &hello->len, &hello->head_len);
        page_response->bytes = build("text/html;charset=UTF-8", page, page_len, keep_alive, &page_response->len,
                                     &page_response->head_len);
    }
    free(page);

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
    fprintf(stderr, "dummy listening on http://127.0.0.1:%ld/\n", port);

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
                else if (flushed > 0) serve(c); /* drained: answer what waited in the input, read again */
            } else if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                on_readable(c); /* a hang-up or error shows as a read of 0 or -1 */
            }
        }
    }

    while (conns) close_conn(conns);
    close(listen_fd);
    close(epfd);
    if (spare_fd >= 0) close(spare_fd);
    for (int page_kind = 0; page_kind < 2; page_kind++) {
        for (int keep_alive = 0; keep_alive < 2; keep_alive++) free(responses[page_kind][keep_alive].bytes);
    }
    return 0;
}
