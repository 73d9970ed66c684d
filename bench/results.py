#!/usr/bin/env python3
"""Writes bench/RESULTS.md (to standard output) from what bench/run.sh collected.

  results.py FACTS RESULTS LOGS

FACTS holds "KEY<TAB>VALUE" lines about the machine and the run; RESULTS the lines the benchmark
scripts wrote through lib.sh (GROUP, BENCH, CHECK, NOTE) and run.sh's RUN line after each script,
so a script's groups are those before its RUN line; LOGS is the folder of each script's log.
"""
import os
import sys

KINDS = {"main": "flamefold tools", "variant": "variant", "perl": "Perl script",
         "inferno": "inferno", "scale": "for scale"}


def read_facts(path):
    facts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("\t")
            facts[key] = value
    return facts


def read_runs(path):
    """The scripts in the order they ran, each with its groups, in order."""
    runs, groups = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            kind = fields[0]
            if kind == "GROUP":
                groups.append({"title": fields[1], "about": fields[2], "rows": [],
                               "checks": [], "notes": []})
            elif kind == "BENCH" and groups:
                groups[-1]["rows"].append(dict(zip(
                    ("kind", "wall", "lo", "hi", "cpu", "rss", "runs", "vs_perl", "vs_inferno",
                     "command"), fields[2:])))
            elif kind == "CHECK" and groups:
                groups[-1]["checks"].append((fields[2], fields[3]))
            elif kind == "NOTE" and groups:
                groups[-1]["notes"].append(fields[2])
            elif kind == "RUN":
                runs.append({"name": fields[1], "status": int(fields[2]), "seconds": fields[3],
                             "command": fields[4], "groups": groups})
                groups = []
    return runs


def ratio(value):
    return "" if value in ("-", "") else value + "x"


def memory(row):
    return "" if row["rss"] in ("-", "") else row["rss"]


def wall(row):
    if row["runs"] == "1":
        return row["wall"]
    return "%s (%s-%s)" % (row["wall"], row["lo"], row["hi"])


def code(text):
    return "`%s`" % text.replace("|", "\\|").replace("`", "'")


def first(rows, kind):
    return next((r for r in rows if r["kind"] == kind), None)


def summary(runs, facts):
    out = ["| benchmark | flamefold tools: s | Perl script: s | inferno: s | vs Perl | vs inferno "
           "| peak RSS MiB: ours, Perl, inferno |", "|---|---|---|---|---|---|---|"]
    for run in runs:
        for group in run["groups"]:
            main = first(group["rows"], "main")
            perl, inferno = first(group["rows"], "perl"), first(group["rows"], "inferno")
            if not main or not (perl or inferno):
                continue
            rss = ", ".join(memory(r) if r else "" for r in (main, perl, inferno))
            out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                group["title"], main["wall"], perl["wall"] if perl else "",
                inferno["wall"] if inferno else "", ratio(main["vs_perl"]),
                ratio(main["vs_inferno"]), rss.strip(", ")))
    return out


def details(run, log_dir):
    out = ["## %s" % run["name"], "",
           "%s, exit status %d, %s s." % (code(run["command"]), run["status"], run["seconds"]), ""]
    for group in run["groups"]:
        out += ["### %s" % group["title"], "", group["about"], ""]
        if group["rows"]:
            out += ["| | command | wall s: median (range) | CPU s | peak RSS MiB | runs "
                    "| vs Perl | vs inferno |", "|---|---|---|---|---|---|---|---|"]
            for row in group["rows"]:
                out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    KINDS.get(row["kind"], row["kind"]), code(row["command"]), wall(row),
                    "" if row["cpu"] == "-" else row["cpu"], memory(row), row["runs"],
                    ratio(row["vs_perl"]), ratio(row["vs_inferno"])))
            out.append("")
        out += ["- check %s: %s" % (result, text) for result, text in group["checks"]]
        out += ["- note: %s" % text for text in group["notes"]]
        if group["checks"] or group["notes"]:
            out.append("")
    if not run["groups"] or run["status"] != 0:
        # A script with no figures of its own (skipped, failed, or one that prints its figures
        # only, as symbol_load): its log says what happened.
        path = os.path.join(log_dir, run["name"] + ".log")
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [line.rstrip("\n") for line in f if line.strip()]
        out += ["```"] + lines[-40:] + ["```", ""]
    return out


def main():
    facts = read_facts(sys.argv[1])
    runs = read_runs(sys.argv[2])
    dirty = facts.get("dirty", "0") != "0"
    rows = [
        ("date", facts.get("date", "")),
        ("CPU", facts.get("cpu", "")),
        ("memory", facts.get("memory", "")),
        ("kernel", facts.get("kernel", "")),
        ("commit", facts.get("commit", "") + (
            "; the tree had %s changed tracked files" % facts["dirty"] if dirty
            else "; the tree was clean")),
        ("build", facts.get("build", "")),
        ("flamefold", facts.get("flamefold", "")),
        ("perf", facts.get("perf", "")),
        ("Perl scripts", facts.get("perl") or "not run: " + facts.get("perl_missing", "")),
        ("inferno", facts.get("inferno") or "not run: " + facts.get("inferno_missing", "")),
        ("load average", "%s at the start, %s at the end" % (
            facts.get("load_start", "?"), facts.get("load_end", "?"))),
        ("settings", facts.get("settings", "")),
    ]
    out = ["# Benchmark results", "",
           "Written by `bench/run.sh`; run it again to replace this file. bench/README.md says "
           "what each benchmark measures.", "",
           "| | |", "|---|---|"]
    out += ["| %s | %s |" % (key, value.replace("|", "\\|")) for key, value in rows]
    out += ["",
            "Each command ran once untimed under time(1), for its peak RSS, then in RUNS rounds "
            "with the other commands of its table, one after the other, so that a host whose "
            "speed drifts weighs on all of them alike (the Perl scripts in PERL_RUNS of the "
            "rounds). Wall and CPU time come from bash's `time` keyword around the command alone; "
            "the figures are medians, with the range of the wall times. A ratio is the Perl "
            "script's or inferno's median wall time over flamefold's. Commands run from the "
            "repository's root, each one's standard output to a file; `flamefold` and "
            "`flamesvg` are copies of the build's, `inferno-*` come from INFERNO_DIR.", "",
            "## Summary", ""]
    out += summary(runs, facts)
    out.append("")
    for run in runs:
        out += details(run, sys.argv[3])
    print("\n".join(out).rstrip("\n"))


main()
