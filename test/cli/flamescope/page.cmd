# The page: one data block and one script, the data valid JSON whose cells
# hold every sample, at 7 rows a second.
in=$TESTDATA/example/example-perf.txt.gz
# The command it shows passes the fold options on, shell-quoted.
"$TOOL" --rows 7 --title 'A <title> & more' --pid --exclude 'no such frame' -o page.html "$in"
python3 - page.html "$TESTDATA" <<'PY'
import base64, json, re, sys, zlib
page = open(sys.argv[1], encoding="utf-8").read()
print("scripts", page.count("<script"), "closed", page.count("</script>"))
print(re.search(r"<title>.*</title>", page).group(0))
data = json.loads(re.search(r'id="scope-data">(.*?)</script>', page, re.S).group(1))
packed, sections = zlib.decompress(base64.b64decode(data["packed"])), []
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
cells = numbers(sections[3])
samples, cell, runs = 0, 0, 0
for delta in cells:
    cell += delta
    samples += next(cells)
    runs += next(cells)
weight = sum((w - 1) * tables["weightUnit"] for w in planes(sections[5], runs))
print("samples", samples, "runs", runs, "weight", weight, "last cell", cell, "<",
      data["rows"] * data["columns"])
print("command", data["command"].replace(sys.argv[2], "TESTDATA"))
PY
# The samples and their weight in flamefold's fold.
zcat "$in" | grep -c '^[^	#].* [0-9]*\.[0-9]*: '
"$TOOLS/flamefold" --pid "$in" | awk '{ n += $NF } END { printf "%.0f\n", n }'
