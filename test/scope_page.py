#!/usr/bin/env python3
"""Unpacks the data of a flamescope page as src/flamegraph/scope_page.h
describes it, apart from the page's own script, and prints what it holds:
its scripts, title, text and tables, the cells' samples and runs, the
weight of all runs and the command it shows (TESTDATA for PREFIX). With
FOLDED, writes there the stacks with their weights summed over all cells,
as folded lines in byte order (flamefold's output for the whole profile).
Usage: scope_page.py PAGE [PREFIX [FOLDED]]"""
import json
import re
import sys
import zlib


def numbers(raw):
    """The LEB128 numbers of `raw`, one after another."""
    v, shift = 0, 0
    for b in raw:
        v |= (b & 127) << shift
        shift += 7
        if b < 128:
            yield v
            v, shift = 0, 0


def text_bytes(text, count):
    """The bytes of the data block's text: two digits of 91 a 13 bits."""
    digits = [c for c in map(chr, range(33, 127)) if c not in '"<\\']
    value = {c: i for i, c in enumerate(digits)}
    held, bits, out = 0, 0, bytearray()
    for k in range(0, len(text), 2):
        held |= (value[text[k]] * 91 + value[text[k + 1]]) << bits
        bits += 13
        while bits >= 8 and len(out) < count:
            out.append(held & 255)
            held >>= 8
            bits -= 8
    return bytes(out)


def sections(packed):
    """The sections of the inflated tables: each its length, then its bytes."""
    out, at = [], 0
    while at < len(packed):
        length, shift = 0, 0
        while True:
            b = packed[at]
            at += 1
            length |= (b & 127) << shift
            shift += 7
            if b < 128:
                break
        out.append(packed[at:at + length])
        at += length
    return out


def planes(raw, count):
    """`count` values as byte planes, lowest first, after their width."""
    width = raw[0]
    return [sum(raw[1 + p * count + k] << (8 * p) for p in range(width))
            for k in range(count)]


def stacks_of(tables, prefixes, callees):
    """The stacks as name ids: the frames shared with the stack before, then
    each other frame as 1 + its place below its caller, or 0 and its id."""
    stacks, below = [], {}
    prefixes, callees = numbers(prefixes), numbers(callees)
    for _ in range(tables["stackCount"]):
        stack = (stacks[-1] if stacks else [])[:next(prefixes)]
        for _ in range(next(prefixes)):
            seen = below.setdefault(stack[-1] if stack else None, [])
            place = next(callees)
            stack.append(seen[place - 1] if place else next(callees))
            if not place:
                seen.append(stack[-1])
        stacks.append(stack)
    return stacks


def main():
    page = open(sys.argv[1], encoding="utf-8").read()
    prefix = sys.argv[2] if len(sys.argv) > 2 else None
    print("scripts", page.count("<script"), "closed", page.count("</script>"))
    print(re.search(r"<title>.*</title>", page).group(0))
    data = json.loads(re.search(r'id="scope-data">(.*?)</script>', page, re.S).group(1))
    packed = zlib.decompress(text_bytes(data["packed"], data["packedBytes"]))
    print("text", len(data["packed"]), "bytes", data["packedBytes"])
    parts = sections(packed)
    tables = json.loads(parts[0].decode("utf-8"))
    print("rows", data["rows"], "columns", data["columns"], "stacks", tables["stackCount"],
          "names", len(tables["names"]), "sections", len(parts))
    cells = numbers(parts[3])
    samples, cell, cell_runs = 0, 0, []
    for delta in cells:
        cell += delta
        samples += next(cells)
        cell_runs.append(next(cells))
    run_stacks = planes(parts[4], sum(cell_runs))
    odd = iter(tables["weights"])
    weights = [(w - 1) * tables["weightUnit"] if w else next(odd)
               for w in planes(parts[5], len(run_stacks))]
    print("samples", samples, "runs", len(run_stacks), "weight", sum(weights),
          "last cell", cell, "<", data["rows"] * data["columns"])
    command = data["command"]
    print("command", command.replace(prefix, "TESTDATA") if prefix else command)
    if len(sys.argv) > 3:
        stacks = stacks_of(tables, parts[1], parts[2])
        per_stack, r = {}, 0
        for n in cell_runs:
            stack = 0
            for _ in range(n):
                stack += run_stacks[r]
                per_stack[stack] = per_stack.get(stack, 0) + weights[r]
                r += 1
        with open(sys.argv[3], "w", encoding="utf-8") as out:
            for s in sorted(per_stack):
                out.write(";".join(tables["names"][i] for i in stacks[s]) +
                          " %s\n" % per_stack[s])


if __name__ == "__main__":
    main()
