"""Strips run hints (and optionally drops retrieval calls) from a simulator calls.jsonl."""
import json, sys
src, dst = sys.argv[1:3]
drop_retrieval = len(sys.argv) > 3 and sys.argv[3] == "--no-retrieval"
with open(dst, "w") as out:
    for l in open(src):
        c = json.loads(l)
        url = c["request"]["url"]
        if drop_retrieval and ("/points/search" in url or "/query" in url or "_search" in url):
            continue
        c["run_hint"] = None
        out.write(json.dumps(c) + "\n")
