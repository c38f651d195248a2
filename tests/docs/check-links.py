#!/usr/bin/env python3
"""Check the tree's cross-references.

  check-links.py [SOURCE_ROOT]

1. Every relative link in a Markdown file ([text](path), [text](path#anchor),
   [label]: path, <img src="path">) names a file or directory that exists;
   an anchor into a Markdown file names one of its headings (GitHub's
   heading ids) or an explicit id/name attribute.
2. Every `docs/...` path named in a text file (*.md, *.c, *.h, *.cu, *.cuh,
   *.sh, *.py, meson.build, scripts with a #! line) exists.

Links with a scheme (https:, mailto:, ...), links inside code (fenced blocks,
`inline code`) and paths with a wildcard are not checked.  Build and demo
directories (build*, .demo, .deb, .whl) and .git are not read.  Each broken
reference is printed as FILE:LINE: ...; the exit status is 1 if there is any,
0 otherwise.
"""
import os
import re
import sys

SKIP_DIRS = {".git", ".demo", ".deb", ".whl", "__pycache__", "node_modules"}
TEXT_EXT = (".md", ".c", ".h", ".cu", ".cuh", ".sh", ".py")
TEXT_NAMES = ("meson.build",)

# [text](target) and ![alt](target); the target may be <...> and may carry
# a "title".
INLINE_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[(?!\^)[^\]]+\]:\s*(<[^>]*>|\S+)")   # not [^footnote]:
HTML_ATTR = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*\"([^\"]+)\"", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# docs/... as a path of its own: not preceded by a path character.
DOCS_PATH = re.compile(r"(?<![A-Za-z0-9_./~$-])docs/[A-Za-z0-9_./*-]*")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ID = re.compile(r"<[^>]*\b(?:id|name)\s*=\s*\"([^\"]+)\"", re.I)
FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")


def walk(root):
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = sorted(x for x in dirs
                         if x not in SKIP_DIRS
                         and not (rel == "." and x.startswith("build")))
        for f in sorted(files):
            yield os.path.join(d, f)


def is_text(path):
    name = os.path.basename(path)
    if name.endswith(TEXT_EXT) or name in TEXT_NAMES:
        return True
    if "." in name:
        return False
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def strip_code(lines):
    """Markdown lines with fenced blocks blanked and `code spans` removed."""
    out, fence = [], None
    for line in lines:
        m = FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append("")
            continue
        if m:
            fence = m.group(1)
            out.append("")
            continue
        out.append(re.sub(r"(`+)(?:(?!\1).)*?\1", "", line))
    return out


def slug(text):
    """GitHub's id for a heading."""
    text = re.sub(r"<[^>]+>", "", text)                 # inline HTML
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text, flags=re.UNICODE)
    return text.replace(" ", "-")


_anchor_cache = {}


def anchors(path):
    if path not in _anchor_cache:
        ids, seen = set(), {}
        lines = read_lines(path)
        fence = None
        for line in lines:
            m = FENCE.match(line)
            if fence is not None:
                if m and m.group(1)[0] == fence[0]:
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            h = HEADING.match(line)
            if h:
                s = slug(h.group(2))
                n = seen.get(s, 0)
                seen[s] = n + 1
                ids.add(s if n == 0 else "%s-%d" % (s, n))
            ids.update(EXPLICIT_ID.findall(line))
        _anchor_cache[path] = ids
    return _anchor_cache[path]


def check_md(root, path, problems):
    lines = read_lines(path)
    base = os.path.dirname(path)
    for no, line in enumerate(strip_code(lines), 1):
        targets = [m.group(1) for m in INLINE_LINK.finditer(line)]
        m = REF_DEF.match(line)
        if m:
            targets.append(m.group(1))
        targets += HTML_ATTR.findall(line)
        for t in targets:
            t = t.strip("<>")
            if not t or SCHEME.match(t) or t.startswith("//"):
                continue
            t = t.split("?", 1)[0]
            file_part, _, anchor = t.partition("#")
            if file_part:
                if file_part.startswith("/"):
                    target = os.path.join(root, file_part.lstrip("/"))
                else:
                    target = os.path.normpath(os.path.join(base, file_part))
            else:
                target = path
            where = "%s:%d" % (os.path.relpath(path, root), no)
            if not os.path.exists(target):
                problems.append("%s: link '%s': no such file" % (where, t))
                continue
            if anchor and target.endswith(".md") and os.path.isfile(target):
                if anchor.lower() not in {a.lower() for a in anchors(target)}:
                    problems.append("%s: link '%s': no heading '#%s' in %s"
                                    % (where, t, anchor, os.path.relpath(target, root)))


def check_docs_paths(root, path, problems):
    md = path.endswith(".md")
    for no, line in enumerate(read_lines(path), 1):
        if md:      # link targets are check_md's
            line = INLINE_LINK.sub("", REF_DEF.sub("", line))
        for m in DOCS_PATH.finditer(line):
            p = m.group(0).rstrip(".-")
            if "*" in p:
                continue
            if not os.path.exists(os.path.join(root, p)):
                problems.append("%s:%d: names '%s': no such file"
                                % (os.path.relpath(path, root), no, p))


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                           else os.path.join(os.path.dirname(__file__), "..", ".."))
    if not os.path.isdir(os.path.join(root, "docs")):
        print("check-links: %s has no docs/ directory" % root, file=sys.stderr)
        return 2
    problems, nmd, ntext = [], 0, 0
    for path in walk(root):
        if not is_text(path):
            continue
        ntext += 1
        if path.endswith(".md"):
            nmd += 1
            check_md(root, path, problems)
        check_docs_paths(root, path, problems)
    for p in problems:
        print(p)
    print("check-links: %d Markdown files, %d text files, %d broken references"
          % (nmd, ntext, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
