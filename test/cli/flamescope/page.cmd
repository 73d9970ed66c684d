# The page: one data block and one script, the data valid JSON whose cells
# hold every sample, at 7 rows a second.
in=$TESTDATA/example/example-perf.txt.gz
# The command it shows passes the fold options on, shell-quoted.
"$TOOL" --rows 7 --title 'A <title> & more' --pid --exclude 'no such frame' -o page.html "$in"
python3 - page.html "$TESTDATA" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
print("scripts", page.count("<script"), "closed", page.count("</script>"))
print(re.search(r"<title>.*</title>", page).group(0))
data = json.loads(re.search(r'id="scope-data">(.*?)</script>', page, re.S).group(1))
print("rows", data["rows"], "columns", data["columns"], "stacks", len(data["stacks"]))
cells, cell = 0, 0
for c in data["cells"]:
    cell += c[0]
    cells += c[1]
print("samples", cells, "last cell", cell, "<", data["rows"] * data["columns"])
print("command", data["command"].replace(sys.argv[2], "TESTDATA"))
PY
zcat "$in" | grep -c '^[^	#].* [0-9]*\.[0-9]*: '
