"""Summaries of an Nsight Compute SASS source page, written by
  ncu -i REPORT --page source --csv --print-source sass > F.csv
(PERFLOG run 104).

  python3 ncu_sass.py regions F.csv [MIN_PERCENT]
      code regions (runs of executed instructions, split at 8 or more
      unexecuted ones) by their share of the stall samples, with their share
      of the executed instructions, main stalls and common execution counts
  python3 ncu_sass.py body F.csv FIRST LAST [show]
      one region (instruction numbers from `regions`): its stalls, executed
      instructions by opcode and, with `show`, every instruction
"""
import collections
import csv
import sys


def read_rows(path):
    """(sass, stall samples, executed, {stall reason: samples}) an instruction."""
    rows = []
    with open(path) as fh:
        r = csv.reader(fh)
        next(r)  # the kernel's name
        hdr = next(r)
        ix = {h: i for i, h in enumerate(hdr)}
        stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
        for line in r:
            if len(line) < len(hdr):
                continue
            rows.append((line[ix['Source']], int(line[ix['Warp Stall Sampling (All Samples)']] or 0),
                         int(line[ix['Instructions Executed']] or 0),
                         {h[len('stall_'):]: int(line[ix[h]] or 0) for h in stalls}))
    return rows


def regions(rows, min_pct):
    tot = sum(x[1] for x in rows)
    totex = sum(x[2] for x in rows)
    regs, cur, gap = [], None, 0
    for i, (_, s, ex, st) in enumerate(rows):
        if ex == 0 and s == 0:
            gap += 1
            continue
        if cur is None or gap >= 8:
            cur = [i, i, 0, 0, collections.Counter(), collections.Counter()]
            regs.append(cur)
        cur[1] = i
        cur[2] += s
        cur[3] += ex
        cur[4].update(st)
        cur[5][ex] += 1
        gap = 0
    print('samples', tot, 'executed', totex)
    for a, b, s, e, st, exs in sorted(regs, key=lambda t: -t[2]):
        if 100 * s / tot < min_pct:
            continue
        top = ', '.join(f'{k} {v}' for k, v in st.most_common(4))
        common = ', '.join(f'{k}x{v}' for k, v in exs.most_common(3))
        print(f'{a:6d}-{b:6d} {100*s/tot:5.1f}% samp, {100*e/totex:5.1f}% inst | {top} | ex {common}')


def body(rows, a, b, show):
    seg = rows[a:b + 1]
    ops, op_samples, st = collections.Counter(), collections.Counter(), collections.Counter()
    for src, s, ex, d in seg:
        toks = src.split()
        op = toks[1] if toks and toks[0].startswith('@') else (toks[0] if toks else '?')
        op = op.split('.')[0]
        ops[op] += ex
        op_samples[op] += s
        st.update(d)
    tot = sum(x[2] for x in seg)
    print('executed', tot, 'samples', sum(x[1] for x in seg))
    print('stalls', st.most_common(12))
    for op, n in ops.most_common(30):
        print(f'{op:10s} {n:10d} {100*n/tot:5.1f}%  samples {op_samples[op]}')
    if show:
        for i, (src, s, ex, d) in enumerate(seg):
            main = sorted(d.items(), key=lambda t: -t[1])[:2]
            print(f'{a+i:6d} {ex:8d} {s:5d} {src[:70]:70s}', ' '.join(f'{k}:{v}' for k, v in main if v))


if __name__ == '__main__':
    if len(sys.argv) < 3 or sys.argv[1] not in ('regions', 'body'):
        sys.exit(__doc__)
    rows = read_rows(sys.argv[2])
    if sys.argv[1] == 'regions':
        regions(rows, float(sys.argv[3]) if len(sys.argv) > 3 else 0.5)
    else:
        body(rows, int(sys.argv[3]), int(sys.argv[4]), len(sys.argv) > 5)
