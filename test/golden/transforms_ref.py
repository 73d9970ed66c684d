#!/usr/bin/env python3
"""A reference for flamefold's stack transforms, written apart from it.

Reads folded stacks ("frame;frame;... COUNT", whole-number counts) on standard input, applies the
transform options given as arguments in their order, adds up the stacks that became equal and
prints them sorted by their bytes, as flamefold writes them. The meanings are those the flamefold
man page states (pprof's -focus, -ignore, -hide, -show_from and -prune_from, inferno's
--skip-after, stackcollapse-recursive.pl's merge, and --generalize-names):

  --focus RE / --ignore RE   keep / drop the stacks with a frame RE finds a match in
  --hide RE                  remove the frames RE finds a match in
  --show-from RE             keep from the frame nearest the root that matches; no match: dropped
  --skip-after NAME          keep from the frame nearest the leaf named NAME (or NAME_[k], _[j],
                             _[i]); no such frame: unchanged
  --prune-from RE            keep up to the frame nearest the leaf that matches; none: unchanged
  --collapse-recursion       a frame equal to the one before goes (Perl's split first drops empty
                             frames at the end; the script's "last frame" starts as "")
  --generalize-names         in the process frame, while it is first: digit runs after a
                             character that is not a letter or digit become '*', --pid's "-PID"
                             and --tid's "-PID/TID" at its end excepted
  --pid / --tid              say that process frames end in such a suffix

A stack left without frames is dropped. Used by test/golden/transforms.sh (BLESS=1, and to check
the kept expectations).
"""

import re
import sys

ANNOTATIONS = (b"_[k]", b"_[j]", b"_[i]")
SUFFIX = {"pid": re.compile(rb"-[^-]*$"), "tid": re.compile(rb"-[^-/]*/[^/]*$")}
NUMBER_AFTER_SEPARATOR = re.compile(rb"(?<=[^A-Za-z0-9])[0-9]+")


def parse_steps(args):
    steps, suffix = [], None
    i = 0
    while i < len(args):
        name = args[i][2:]
        if name in ("pid", "tid"):
            suffix = name
            i += 1
        elif name in ("collapse-recursion", "generalize-names"):
            steps.append((name, None))
            i += 1
        else:
            steps.append((name, args[i + 1].encode()))
            i += 2
    return steps, suffix


def generalize(process, suffix):
    tail = b""
    if suffix:
        m = SUFFIX[suffix].search(process)
        if m:
            process, tail = process[: m.start()], m.group(0)
    return NUMBER_AFTER_SEPARATOR.sub(b"*", process) + tail


def apply(frames, steps, suffix):
    """The frames the steps leave, or None when the stack is dropped."""
    has_process = True
    for name, arg in steps:
        match = (lambda f: re.search(arg, f) is not None) if name not in (
            "skip-after", "collapse-recursion", "generalize-names") else None
        if name == "focus" and not any(map(match, frames)):
            return None
        if name == "ignore" and any(map(match, frames)):
            return None
        if name == "hide":
            if frames and match(frames[0]):
                has_process = False
            frames = [f for f in frames if not match(f)]
        elif name == "show-from":
            hits = [i for i, f in enumerate(frames) if match(f)]
            if not hits:
                return None
            if hits[0] > 0:
                has_process = False
            frames = frames[hits[0]:]
        elif name == "skip-after":
            named = [arg] + [arg + a for a in ANNOTATIONS]
            hits = [i for i, f in enumerate(frames) if f in named]
            if hits and hits[-1] > 0:
                has_process = False
                frames = frames[hits[-1]:]
        elif name == "prune-from":
            hits = [i for i, f in enumerate(frames) if match(f)]
            if hits:
                frames = frames[: hits[-1] + 1]
        elif name == "collapse-recursion":
            while frames and frames[-1] == b"":
                frames.pop()
            merged, last = [], b""
            for f in frames:
                if f != last:
                    merged.append(f)
                    last = f
            if frames and frames[0] == b"":
                has_process = False
            frames = merged
        elif name == "generalize-names":
            if has_process and frames:
                frames = [generalize(frames[0], suffix)] + frames[1:]
        if not frames:
            return None
    return frames


def main():
    steps, suffix = parse_steps(sys.argv[1:])
    totals = {}
    for line in sys.stdin.buffer:
        stack, count = line.rstrip(b"\n").rsplit(b" ", 1)
        frames = apply(stack.split(b";"), steps, suffix)
        if frames is not None:
            key = b";".join(frames)
            totals[key] = totals.get(key, 0) + int(count)
    out = sys.stdout.buffer
    for key in sorted(totals):
        out.write(key + b" " + str(totals[key]).encode() + b"\n")


if __name__ == "__main__":
    main()
