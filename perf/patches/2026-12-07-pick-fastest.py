#!/usr/bin/env python3
"""Session 40: which build of a call's timings is fastest against the base.

Reads qrita-bench logs named GROUP-BUILD-SAMPLE.txt in DIR; for each build
other than BASE, the geometric mean over the cases both ran of (median us
of the build / median us of the base). Prints each build's score and case
count; the last line is the build with the lowest score when that score is
below LIMIT (default 0.99), else "none".
    pick-fastest.py DIR BASE [LIMIT]
"""
import collections, math, os, re, statistics, sys

d, base = sys.argv[1], sys.argv[2]
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 0.99
us = collections.defaultdict(lambda: collections.defaultdict(list))
for name in os.listdir(d):
    m = re.match(r"([A-Za-z0-9]+)-(n\d+)-(\d+)\.txt$", name)
    if not m:
        continue
    group, build, _ = m.groups()
    for line in open(os.path.join(d, name)):
        w = line.split()
        if len(w) < 14 or w[0] != "cuda" or not w[2].isdigit():
            continue
        try:
            us[(group,) + tuple(w[2:8])][build].append(float(w[9]))
        except ValueError:
            pass
scores = {}
for build in sorted({b for case in us.values() for b in case} - {base}):
    logs = [math.log(statistics.median(c[build]) / statistics.median(c[base]))
            for c in us.values() if build in c and base in c]
    if logs:
        scores[build] = math.exp(sum(logs) / len(logs))
        print(f"{build} {scores[build]:.4f} over {len(logs)} cases")
best = min(scores, key=scores.get) if scores else None
print(best if best and scores[best] < limit else "none")
