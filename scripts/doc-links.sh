#!/usr/bin/env bash
# Checks the links of the project's pages: README.md, every docs/**/*.md and bench/RESULTS.md.
# A relative link must name a file or folder that exists in the repository, and a '#anchor' (on
# the same page or on another .md page) must be the anchor GitHub gives one of that page's
# headings: the heading's text in lower case, punctuation dropped but for '-' and '_', each space
# a '-', and '-1', '-2', ... added to a repeated one (an HTML id="..." or name="..." counts too).
# Links to http:, https: and mailto: are not followed; links inside code are not links. An anchor
# on a file that is not Markdown (a line of a source file, say) is not checked.
#
#   scripts/doc-links.sh [FILE ...]    the pages above, or only the FILEs given
#
# Prints each broken link as FILE:LINE: target (and why), and exits 1 if there is any; 0 otherwise.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
exec python3 - "$here" "$@" <<'PYTHON'
import html
import os
import re
import sys
import unicodedata
from urllib.parse import unquote

root = sys.argv[1]
EXTERNAL = ("http:", "https:", "mailto:")
FENCE = re.compile(r"^( {0,3}|\s*)(`{3,}|~{3,})")       # fences may sit indented in a list item
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
HTML_ID = re.compile(r"""<[a-zA-Z][^>]*\s(?:id|name)\s*=\s*["']([^"']+)["']""")
HTML_LINK = re.compile(r"""<(?:a|img)\s[^>]*(?:href|src)\s*=\s*["']([^"']+)["']""")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")


def pages():
    if len(sys.argv) > 2:
        return [os.path.relpath(os.path.abspath(p), root) for p in sys.argv[2:]]
    found = ["README.md"]
    for folder, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        found += sorted(os.path.relpath(os.path.join(folder, f), root) for f in files if f.endswith(".md"))
    found.append(os.path.join("bench", "RESULTS.md"))
    return found


def prose_lines(text):
    """(line number, line) for each line outside fenced code blocks, and whether each starts a fence."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        opening = FENCE.match(line)
        if fence is None:
            if opening:
                fence = opening.group(2)
                continue
            yield number, line
        elif opening and opening.group(2)[0] == fence[0] and len(opening.group(2)) >= len(fence) \
                and line.strip() == opening.group(2):
            fence = None


def slug(heading):
    """GitHub's anchor for a heading's Markdown text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # a link or image: its text
    text = re.sub(r"<[^>]+>", "", text)                          # HTML tags
    text = html.unescape(text).lower()
    kept = []
    for c in text:
        category = unicodedata.category(c)
        if c in " -" or category[0] in "LMN" or category == "Pc":
            kept.append(c)
    return "".join(kept).replace(" ", "-")


anchor_cache = {}


def anchors(page):
    """The anchors of a page, a set; None when the page cannot be read."""
    if page in anchor_cache:
        return anchor_cache[page]
    try:
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = f.read()
    except OSError:
        anchor_cache[page] = None
        return None
    found, used = set(), {}
    previous = ""
    for _, line in prose_lines(text):
        heading = None
        atx = ATX.match(line)
        if atx:
            heading = atx.group(2) or ""
        elif SETEXT.match(line) and previous.strip() and not previous.lstrip().startswith(("|", "-", "*", ">")) \
                and not ATX.match(previous):
            heading = previous.strip()
        if heading is not None:
            base = slug(heading)
            n = used.get(base, 0)
            found.add(base if n == 0 else f"{base}-{n}")
            used[base] = n + 1
        for m in HTML_ID.finditer(line):
            found.add(m.group(1))
        previous = line
    anchor_cache[page] = found
    return found


def targets(line):
    """The link targets on a line of prose: inline links and images, reference definitions, HTML links."""
    prose = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
    ref = REF_DEF.match(prose)
    if ref:
        yield ref.group(1).strip("<>")
    i = prose.find("](")
    while i >= 0:
        j, depth = i + 2, 0
        while j < len(prose) and prose[j] in " \t":
            j += 1
        if j < len(prose) and prose[j] == "<":
            end = prose.find(">", j)
            if end > 0:
                yield prose[j + 1:end]
        else:
            start = j
            while j < len(prose) and not prose[j].isspace():
                if prose[j] == "(":
                    depth += 1
                elif prose[j] == ")":
                    if depth == 0:
                        break
                    depth -= 1
                j += 1
            if j > start:
                yield prose[start:j]
        i = prose.find("](", i + 2)
    for m in HTML_LINK.finditer(prose):
        yield m.group(1)


def problem(page, target):
    """Why target, linked from page, is broken; None when it is not."""
    if target.lower().startswith(EXTERNAL):
        return None
    path, _, anchor = target.partition("#")
    path = unquote(path.split("?", 1)[0])
    if path:
        base = root if path.startswith("/") else os.path.dirname(os.path.join(root, page))
        full = os.path.normpath(os.path.join(base, path.lstrip("/")))
        if os.path.relpath(full, root).startswith(".."):
            return "outside the repository"
        if not os.path.exists(full):
            return "no such file"
        linked = os.path.relpath(full, root)
    else:
        linked = page
    if not anchor or not linked.endswith(".md") or os.path.isdir(os.path.join(root, linked)):
        return None
    known = anchors(linked)
    if known is None:
        return f"cannot read {linked}"
    if unquote(anchor) not in known:
        return f"no heading with anchor #{anchor} in {linked}"
    return None


broken = checked = 0
files = pages()
for page in files:
    try:
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"{page}:0: cannot be read ({e.strerror})")
        broken += 1
        continue
    for number, line in prose_lines(text):
        for target in targets(line):
            checked += 1
            why = problem(page, target)
            if why:
                print(f"{page}:{number}: {target}: {why}")
                broken += 1
if broken:
    print(f"doc-links: {broken} broken of {checked} links in {len(files)} page(s)", file=sys.stderr)
    sys.exit(1)
print(f"doc-links: {checked} links in {len(files)} page(s), none broken", file=sys.stderr)
PYTHON
