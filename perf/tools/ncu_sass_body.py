"""One region of an Nsight Compute SASS source page (see ncu_sass_regions.py):
stall reasons, executed instructions by opcode and, with a fourth argument,
every instruction with its executions, samples and main stalls.
Usage: python3 ncu_sass_body.py F.csv FIRST LAST [show] (PERFLOG run 104)."""
import csv, sys, collections
f = sys.argv[1]; a = int(sys.argv[2]); b = int(sys.argv[3]); show = len(sys.argv) > 4
rows = []
with open(f) as fh:
    r = csv.reader(fh); kn = next(r); hdr = next(r); ix = {h: i for i, h in enumerate(hdr)}
    stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
    for line in r:
        if len(line) < len(hdr): continue
        rows.append((line[ix['Source']], int(line[ix['Warp Stall Sampling (All Samples)']] or 0), int(line[ix['Instructions Executed']] or 0), {h[6:]: int(line[ix[h]] or 0) for h in stalls}))
seg = rows[a:b+1]
ops = collections.Counter(); opsamp = collections.Counter(); st = collections.Counter()
for src, s, ex, d in seg:
    toks = src.split()
    op = toks[1] if toks and toks[0].startswith('@') else (toks[0] if toks else '?')
    ops[op.split('.')[0]] += ex; opsamp[op.split('.')[0]] += s; st.update(d)
tot = sum(x[2] for x in seg)
print('executed', tot, 'samples', sum(x[1] for x in seg))
print('stalls', st.most_common(12))
for op, n in ops.most_common(30): print(f'{op:10s} {n:10d} {100*n/tot:5.1f}%  samples {opsamp[op]}')
if show:
    for i, (src, s, ex, d) in enumerate(seg):
        print(f'{a+i:6d} {ex:8d} {s:5d} {src[:70]:70s}', ' '.join(f'{k}:{v}' for k, v in sorted(d.items(), key=lambda t: -t[1])[:2] if v))
