"""Summarise an Nsight Compute source page (ncu -i REPORT --page source --csv
--print-source sass > F.csv) by code region: runs of executed instructions
(split at 8 or more unexecuted ones), with their share of the stall samples
and of the executed instructions, their main stall reasons and their common
execution counts. Usage: python3 ncu_sass_regions.py F.csv [MIN_PERCENT]
(PERFLOG run 104)."""
import csv, sys, collections
f = sys.argv[1]; minpct = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
rows = []
with open(f) as fh:
    r = csv.reader(fh); kn = next(r); hdr = next(r); ix = {h: i for i, h in enumerate(hdr)}
    stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
    for line in r:
        if len(line) < len(hdr): continue
        s = int(line[ix['Warp Stall Sampling (All Samples)']] or 0); ex = int(line[ix['Instructions Executed']] or 0)
        rows.append((line[ix['Source']], s, ex, {h[6:]: int(line[ix[h]] or 0) for h in stalls}))
tot = sum(x[1] for x in rows); totex = sum(x[2] for x in rows)
# regions: maximal runs of instructions with executed > 0, split where a label-ish jump in count happens is too fine;
# use runs separated by >= 8 unexecuted instructions
regs = []; cur = None; gap = 0
for i, x in enumerate(rows):
    if x[2] > 0 or x[1] > 0:
        if cur is None or gap >= 8: cur = [i, i, 0, 0, collections.Counter(), collections.Counter()]; regs.append(cur)
        cur[1] = i; cur[2] += x[1]; cur[3] += x[2]; cur[4].update(x[3]); cur[5][x[2]] += 1; gap = 0
    else: gap += 1
print('samples', tot, 'executed', totex)
for a, b, s, e, st, exs in sorted(regs, key=lambda t: -t[2]):
    if 100 * s / tot < minpct: continue
    top = ', '.join(f'{k} {v}' for k, v in st.most_common(4))
    common = ', '.join(f'{k}x{v}' for k, v in exs.most_common(3))
    print(f'{a:6d}-{b:6d} {100*s/tot:5.1f}% samp, {100*e/totex:5.1f}% inst | {top} | ex {common}')
