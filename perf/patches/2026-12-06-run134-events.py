#!/usr/bin/env python3
"""Reads run 134's event log (lines 'EV t blk kind s id arg' after 'EVN n',
one dump a call) and prints, for the last call, where each served row's
time went (us, from globaltimer stamps).
Usage: 2026-12-06-run134-events.py LOG"""
import collections, statistics as st, sys

dumps, cur = [], None
for line in open(sys.argv[1]):
    w = line.split()
    if not w: continue
    if w[0] == 'EVN': cur = []; dumps.append(cur)
    elif w[0] == 'EV' and cur is not None:
        t, blk, kind, s, rid, arg = map(int, w[1:7])
        cur.append((t, blk, kind, s, rid, arg))
ev = sorted(dumps[-1])
t0 = ev[0][0]
us = lambda t: (t - t0) / 1000.0
fin = [e[0] for e in ev if e[2] == 0]
leave = [e[0] for e in ev if e[2] == 19]
print(f"calls logged {len(dumps)}; events {len(ev)}; blocks done with own rows: first {us(min(fin)):.1f} us, median {us(st.median(fin)):.1f}, last {us(max(fin)):.1f}; last leave {us(max(leave)):.1f}")
# Which row a block's team events belong to: the row of its latest event 6 (loaded).
cur_row = {}
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for t, blk, kind, s, rid, arg in ev:
    if kind == 1: rows[rid]['claim'].append((t, s, arg))
    elif kind == 2: rows[rid]['enter'].append((t, s))
    elif kind in (3, 4, 5, 6, 7, 8, 9, 10):
        rows[rid][kind].append((t, blk, s, arg))
        if kind == 6: cur_row[blk] = rid
    elif kind in (11, 12, 13, 14, 15, 16, 17):
        rows[cur_row.get(blk, -1)][kind].append((t, blk, s, arg))
kinds = {1: 'gather', 2: 'hist', 3: 'bin'}
agg = collections.defaultdict(list)
order = sorted((r for r in rows if r >= 0), key=lambda r: min(x[0] for x in rows[r]['claim']) if rows[r]['claim'] else 0)
for r in order:
    R = rows[r]
    if not R['claim'] or not R[6]: continue
    j = R['claim'][0][2]
    c0, c1 = min(x[0] for x in R['claim']), max(x[0] for x in R['claim'])
    enter1 = max(x[0] for x in R['enter']) if R['enter'] else c1
    thr0 = min(x[0] for x in R[3]); arr1 = max(x[0] for x in R[5])
    loaded = R[6][0][0]
    dec = R[7][0][0]; flags = R[7][0][3]
    wr = max(x[0] for x in R[8])
    parts = []
    posts = sorted(R[11])
    a0 = sorted(R[12]); a1 = sorted(R[13])
    seen = sorted(R[9]); done = sorted(R[10])
    prev = loaded
    serial = 0.0
    for i, (tp, _, _, a) in enumerate(posts):
        kind = kinds.get(a & 0xff, str(a & 0xff)); num = a >> 8
        nxt = posts[i + 1][0] if i + 1 < len(posts) else dec
        sn = [x[0] for x in seen if tp <= x[0] < nxt and x[3] == (a & 0xff)]
        dn = [x[0] for x in done if tp <= x[0] <= nxt and x[3] == (a & 0xff)]
        w0 = [x[0] for x in a0 if tp <= x[0] <= nxt]; w1 = [x[0] for x in a1 if tp <= x[0] <= nxt]
        serial += (tp - prev) / 1000.0
        d = f"{kind}: +{(tp-prev)/1000:.1f} post"
        if sn: d += f" seen {(min(sn)-tp)/1000:.1f}-{(max(sn)-tp)/1000:.1f}"
        if dn and sn: d += f" task {(st.median(dn)-st.median(sn))/1000:.1f} last-done {(max(dn)-tp)/1000:.1f}"
        if w0 and w1: d += f" own {(w0[0]-tp)/1000:.1f} wait {(w1[-1]-w0[0])/1000:.1f}"
        prev = w1[-1] if w1 else tp
        parts.append(d)
        agg['task-' + kind].append((max(dn) - tp) / 1000.0 if dn else 0)
    serial += (dec - prev) / 1000.0
    vseen = [x[0] for x in seen if x[3] == 99]
    line = (f"row {r:5d} j {j:3d} claims {us(c0):7.1f}-{us(c1):7.1f} entered {us(enter1):7.1f} thr..arrive {(arr1-thr0)/1000:6.1f} "
            f"load {(loaded-arr1)/1000:5.1f} decide {(dec-loaded)/1000:6.1f} (serial {serial:5.1f}, tasks {len(posts)}) "
            f"verdict-seen {((max(vseen)-dec)/1000 if vseen else 0):4.1f} write-end {(wr-dec)/1000:5.1f} flags {flags & 0xff:#x} | " + "; ".join(parts))
    print(line)
    for k, v in (('spread of claims', (c1 - c0) / 1000), ('thr..arrive', (arr1 - thr0) / 1000), ('load', (loaded - arr1) / 1000),
                 ('decide', (dec - loaded) / 1000), ('decider serial', serial), ('write', (wr - dec) / 1000),
                 ('claim..written', (wr - c0) / 1000)):
        agg[k].append(v)
print("medians over rows (us):", ", ".join(f"{k} {st.median(v):.1f}" for k, v in agg.items() if v))
