#!/usr/bin/env python3
"""Where a server's CPU goes, by layer, from CPU samples.

Usage: jfr print --events jdk.ExecutionSample --stack-depth 256 rec.jfr | scripts/cpu-layers.py
   or: scripts/cpu-layers.py < profile.collapsed   (async-profiler's "collapsed" output: one
       stack per line, root first, frames separated by ";", then the sample count)

Prints two tables. "Self": each sample counted once, for the layer of its top frame (JDK, Petrel,
Catalina/Coyote, Spring, ...). "Inclusive": the share of samples with a given frame anywhere on the
stack, for the frames that bound the layers of a servlet request on Tomcat: Coyote's adapter (all
of Catalina and the application), the servlet (Spring's DispatcherServlet) and the controller. What
is inside the adapter but not inside the servlet is Catalina's own cost per request.
"""
import re
import sys
from collections import Counter

LAYERS = [
    ("Petrel", ("dev.petrel.",)),
    ("Tomcat (Catalina, Coyote)", ("org.apache.catalina.", "org.apache.coyote.", "org.apache.tomcat.", "org.apache.jasper.")),
    ("Spring", ("org.springframework.",)),
    ("Jackson", ("com.fasterxml.", "tools.jackson.")),
    ("Logging", ("org.slf4j.", "ch.qos.logback.", "org.apache.logging.")),
    ("JDK", ("java.", "javax.", "jdk.", "sun.", "com.sun.")),
]
KERNEL = "Kernel (system calls, TCP)"
NATIVE = "JVM and native (GC, JIT, libc)"
BOUNDS = [
    ("Coyote adapter (Catalina + application)", "org.apache.catalina.connector.CoyoteAdapter.service"),
    ("Servlet (Spring DispatcherServlet)", "org.springframework.web.servlet.FrameworkServlet.service"),
    ("Spring filters and servlet", "org.springframework.web.filter.OncePerRequestFilter.doFilter"),
    ("Controller method", "dev.petrel.example.hello.HelloController.hello"),
    ("Petrel HTTP/1.1 connection", "dev.petrel.server.http1.Http1Connection.serve"),
    ("Socket writes", "sun.nio.ch.SocketChannelImpl.write"),
    ("Socket reads", "sun.nio.ch.SocketChannelImpl.read"),
]
FRAME = re.compile(r"^\s+([\w$.<>/]+)\(.*line:")


def layer(frame):
    for name, prefixes in LAYERS:
        if frame.startswith(prefixes):
            return name
    if frame.endswith("_[k]"):
        return KERNEL
    return NATIVE if "." not in frame else "other"


def collapsed(first, lines):
    """async-profiler's collapsed stacks, as (top-first stack, count) pairs."""
    for line in [first] + list(lines):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if stack and count.isdigit():
            frames = [f.replace("/", ".") for f in stack.split(";")]
            yield frames[::-1], int(count)


def jfr_samples(lines):
    stack, inside = [], False
    for line in lines:
        if line.startswith("jdk.ExecutionSample"):
            stack, inside = [], True
        elif inside and line.strip() == "]":
            inside = False
            if stack:
                yield stack
        elif inside:
            m = FRAME.match(line)
            if m:
                stack.append(m.group(1))


def main():
    first = sys.stdin.readline()
    if first.startswith("jdk.ExecutionSample"):
        stacks = ((stack, 1) for stack in jfr_samples([first] + sys.stdin.readlines()))
    else:
        stacks = collapsed(first, sys.stdin)
    total, own, bounded = 0, Counter(), Counter()
    for stack, count in stacks:
        total += count
        own[layer(stack[0])] += count
        for name, frame in BOUNDS:
            if any(f == frame for f in stack):
                bounded[name] += count
    if total == 0:
        sys.exit("no samples on standard input")
    print(f"{total} samples\n\nSelf time by layer (top frame):")
    for name, count in own.most_common():
        print(f"  {name:45s} {100 * count / total:5.1f} %")
    print("\nInclusive (frame anywhere on the stack):")
    for name, _ in BOUNDS:
        print(f"  {name:45s} {100 * bounded[name] / total:5.1f} %")


if __name__ == "__main__":
    main()
