#!/usr/bin/env python3
"""Frame-by-frame comparison of SVGs drawn by flamesvg with those flamegraph.pl drew.

  svgframes.py LIST            LIST holds lines "NAME<TAB>OURS<TAB>EXPECTED"
  svgframes.py OURS EXPECTED   one pair, named after OURS

Prints "ok NAME" or "FAIL: NAME: ..." for each pair; exits 1 when any differs. Each frame's title,
x, y, width, height, fill and label must be equal (the scripts are each program's own); ours must
be well-formed XML. EXPECTED may be gzip-compressed (.gz). flamegraph.pl writes --title and
--subtitle unescaped, so those two lines of EXPECTED are escaped before parsing.
"""
import gzip
import re, sys, xml.dom.minidom
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
def fix_titles(text):
    def esc(m):
        body = m.group(2).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return m.group(1) + body + "</text>"
    return re.sub(r'(<text id="(?:title|subtitle)"[^>]*>)(.*)</text>', esc, text)
def frames(root):
    out = []
    for g in root.iter(NS + "g"):
        t, r, x = g.find(NS + "title"), g.find(NS + "rect"), g.find(NS + "text")
        if t is None or r is None:
            continue
        num = lambda k: round(float(r.get(k, "nan")), 1)
        out.append((t.text or "", num("x"), num("y"), num("width"), num("height"),
                    (r.get("fill") or "").replace(" ", ""),
                    (x.text or "") if x is not None else ""))
    return sorted(out)
def compare(ours_path, exp_path):
    """Returns None when equal, else what differs."""
    try:
        xml.dom.minidom.parse(ours_path)
    except Exception as e:
        return f"not well-formed: {e}"
    ours = ET.parse(ours_path).getroot()
    opener = gzip.open if exp_path.endswith(".gz") else open
    with opener(exp_path, "rt", encoding="utf-8") as f:
        exp = ET.fromstring(fix_titles(f.read()).encode())
    a, b = frames(ours), frames(exp)
    if a != b:
        sa, sb = set(a), set(b)
        msg = [f"{len(a)} frames vs {len(b)} expected"]
        msg += ["only ours:     " + str(f) for f in sorted(sa - sb)[:3]]
        msg += ["only expected: " + str(f) for f in sorted(sb - sa)[:3]]
        return "\n  ".join(msg)
    for k in ("width", "height"):
        if ours.get(k) != exp.get(k):
            return f"svg {k}: {ours.get(k)} vs {exp.get(k)}"
    for id_ in ("title", "subtitle"):
        te = [e.text for e in ours.iter(NS + "text") if e.get("id") == id_]
        tx = [e.text for e in exp.iter(NS + "text") if e.get("id") == id_]
        if te != tx:
            return f"{id_}: {te} vs {tx}"
    return None
if len(sys.argv) == 3:
    pairs = [(sys.argv[1], sys.argv[1], sys.argv[2])]
elif len(sys.argv) == 2:
    pairs = [line.rstrip("\n").split("\t") for line in open(sys.argv[1], encoding="utf-8")]
else:
    sys.exit("usage: svgframes.py LIST | svgframes.py OURS EXPECTED")
bad = 0
for name, ours_path, exp_path in pairs:
    why = compare(ours_path, exp_path)
    if why is None:
        print("ok " + name)
    else:
        bad += 1
        print(f"FAIL: {name}: frames differ from flamegraph.pl's\n  {why}")
sys.exit(1 if bad else 0)
