#!/usr/bin/env python3
"""Checks the documentation's relative links.

Every relative link and image in README.md, CONTRIBUTING.md and docs/**/*.md
must lead to a file or folder of the repository, and a #anchor on a
Markdown file to one of its headings (GitHub's slugs). README.md may have
at most --readme-limit lines (250): it is the page for a person arriving,
the reference lives in docs/. Exits 1 naming every broken link.

    tests/docs/check_links.py [--readme-limit N] REPOSITORY_ROOT
"""
import argparse
import os
import re
import sys
from urllib.parse import unquote

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target "title") and ![alt](target); text may hold one level of brackets.
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def documents(root):
    found = [name for name in ("README.md", "CONTRIBUTING.md") if os.path.isfile(os.path.join(root, name))]
    for folder, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        found += sorted(os.path.relpath(os.path.join(folder, f), root) for f in files if f.endswith(".md"))
    return found


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    result = set()
    for _, line in prose_lines(path):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else f"{base}-{n}")
    return result


def check_link(root, doc, target):
    """None when `target`, written in `doc`, resolves; otherwise why not."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
        return None  # an address outside the repository
    path_part, _, anchor = target.partition("#")
    path_part = unquote(path_part.split("?", 1)[0])
    doc_path = os.path.join(root, doc)
    if path_part:
        if path_part.startswith("/"):
            return "absolute path: write it relative to the page"
        resolved = os.path.normpath(os.path.join(os.path.dirname(doc_path), path_part))
        if os.path.relpath(resolved, root).startswith(".."):
            return "leads outside the repository"
        if not os.path.exists(resolved):
            return "no such file"
    else:
        resolved = doc_path
    if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
        if anchor.lower() not in anchors(resolved):
            return f"no heading with anchor #{anchor} in {os.path.relpath(resolved, root)}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--readme-limit", type=int, default=250)
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    problems = []
    docs = documents(root)
    for doc in docs:
        for number, line in prose_lines(os.path.join(root, doc)):
            line = CODE_SPAN.sub("", line)  # `[a](b)` in code is not a link
            targets = INLINE.findall(line)
            m = REFERENCE.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                why = check_link(root, doc, target)
                if why:
                    problems.append(f"{doc}:{number}: broken link '{target}': {why}")
    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        with open(readme, encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        if lines > args.readme_limit:
            problems.append(f"README.md: {lines} lines, more than {args.readme_limit}: move reference material to docs/")
    for p in problems:
        print(p)
    print(f"{len(docs)} pages checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
