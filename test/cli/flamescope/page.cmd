# The page: one data block and one script, the data valid JSON whose cells
# hold every sample, at 7 rows a second, and whose stacks and weights, the
# tables unpacked as scope_page.h says, are flamefold's folded lines.
in=$TESTDATA/example/example-perf.txt.gz
# The command it shows passes the fold options on, shell-quoted.
"$TOOL" --rows 7 --title 'A <title> & more' --pid --exclude 'no such frame' -o page.html "$in"
python3 - page.html "$TESTDATA" <<'PY'
import json, re, sys, zlib
page = open(sys.argv[1], encoding="utf-8").read()
print("scripts", page.count("<script"), "closed", page.count("</script>"))
print(re.search(r"<title>.*</title>", page).group(0))
data = json.loads(re.search(r'id="scope-data">(.*?)</script>', page, re.S).group(1))
digits = [c for c in map(chr, range(33, 127)) if c not in '"<\\']
def text_bytes(text, count):  # two digits of 91 for each 13 bits, lowest first
    v = sum((digits.index(text[k]) * 91 + digits.index(text[k + 1])) << (13 * (k // 2))
            for k in range(0, len(text), 2))
    return v.to_bytes((len(text) // 2 * 13 + 7) // 8, "little")[:count]
packed, sections = zlib.decompress(text_bytes(data["packed"], data["packedBytes"])), []
print("digits", len(digits), "text", len(data["packed"]), "bytes", data["packedBytes"])
def numbers(raw):  # LEB128 numbers
    v, shift = 0, 0
    for b in raw:
        v |= (b & 127) << shift
        shift += 7
        if b < 128:
            yield v
            v, shift = 0, 0
def varint(at):  # the LEB128 number at `at` and the offset after it
    v, shift = 0, 0
    while True:
        v |= (packed[at] & 127) << shift
        shift += 7
        at += 1
        if packed[at - 1] < 128:
            return v, at
at = 0
while at < len(packed):
    length, at = varint(at)
    sections.append(packed[at:at + length])
    at += length
def planes(raw, count):  # byte planes, lowest first
    width = raw[0]
    return [sum(raw[1 + p * count + k] << (8 * p) for p in range(width)) for k in range(count)]
tables = json.loads(sections[0].decode("utf-8"))
print("rows", data["rows"], "columns", data["columns"], "stacks", tables["stackCount"],
      "names", len(tables["names"]), "sections", len(sections))
# The stacks: frames shared with the one before, then each other frame as
# 1 + its place below its caller or 0 and its name id.
prefixes, callees, stacks, below = numbers(sections[1]), numbers(sections[2]), [], {}
for _ in range(tables["stackCount"]):
    stack = (stacks[-1] if stacks else [])[:next(prefixes)]
    for _ in range(next(prefixes)):
        seen = below.setdefault(stack[-1] if stack else None, [])
        place = next(callees)
        stack.append(seen[place - 1] if place else next(callees))
        if not place:
            seen.append(stack[-1])
    stacks.append(stack)
cells = numbers(sections[3])
samples, cell, cell_runs = 0, 0, []
for delta in cells:
    cell += delta
    samples += next(cells)
    cell_runs.append(next(cells))
run_stacks = planes(sections[4], sum(cell_runs))
weights = [(w - 1) * tables["weightUnit"] for w in planes(sections[5], len(run_stacks))]
per_stack, r = {}, 0
for n in cell_runs:
    stack = 0
    for _ in range(n):
        stack += run_stacks[r]
        per_stack[stack] = per_stack.get(stack, 0) + weights[r]
        r += 1
with open("page.folded", "w", encoding="utf-8") as out:
    for s in sorted(per_stack):
        out.write(";".join(tables["names"][i] for i in stacks[s]) + " %d\n" % per_stack[s])
print("samples", samples, "runs", r, "weight", sum(weights), "last cell", cell, "<",
      data["rows"] * data["columns"])
print("command", data["command"].replace(sys.argv[2], "TESTDATA"))
PY
# The stacks and weights the page holds are flamefold's folded lines.
"$TOOLS/flamefold" --pid "$in" | cmp - page.folded && echo "page stacks are flamefold's"
# The samples and their weight in flamefold's fold.
zcat "$in" | grep -c '^[^	#].* [0-9]*\.[0-9]*: '
"$TOOLS/flamefold" --pid "$in" | awk '{ n += $NF } END { printf "%.0f\n", n }'
