# The page: one data block and one script, the data valid JSON whose cells
# hold every sample, at 7 rows a second.
in=$TESTDATA/example/example-perf.txt.gz
# The command it shows passes the fold options on, shell-quoted.
"$TOOL" --rows 7 --title 'A <title> & more' --pid --exclude 'no such frame' -o page.html "$in"
python3 - page.html "$TESTDATA" <<'PY'
import base64, json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
print("scripts", page.count("<script"), "closed", page.count("</script>"))
print(re.search(r"<title>.*</title>", page).group(0))
data = json.loads(re.search(r'id="scope-data">(.*?)</script>', page, re.S).group(1))
print("rows", data["rows"], "columns", data["columns"], "stacks", data["stackCount"])
def numbers(packed):  # base64 of LEB128 numbers
    raw, v, shift = base64.b64decode(packed), 0, 0
    for b in raw:
        v |= (b & 127) << shift
        shift += 7
        if b < 128:
            yield v
            v, shift = 0, 0
cells = numbers(data["cells"])
samples, cell, weight = 0, 0, 0
for delta in cells:
    cell += delta
    samples += next(cells)
    for _ in range(next(cells)):
        next(cells)
        weight += next(cells) // 2 * data["weightUnit"]
print("samples", samples, "weight", weight, "last cell", cell, "<", data["rows"] * data["columns"])
print("command", data["command"].replace(sys.argv[2], "TESTDATA"))
PY
# The samples and their weight in flamefold's fold.
zcat "$in" | grep -c '^[^	#].* [0-9]*\.[0-9]*: '
"$TOOLS/flamefold" --pid "$in" | awk '{ n += $NF } END { printf "%.0f\n", n }'
