import sys, collections
# usage: summ.py [--cfgs=a,b,...] RESULTS.tsv...  (default: the rules run's configurations)
args = sys.argv[1:]
cfgs = ['z3', 'base', 'nosubsume', 'concretize', 'conjecture']
if args and args[0].startswith('--cfgs='):
    cfgs = args[0][len('--cfgs='):].split(',')
    args = args[1:]
rows = collections.OrderedDict()
for fn in args:
    for line in open(fn):
        f, exp, cfg, r, t = line.rstrip('\n').split('\t')
        rows.setdefault(f, {})[cfg] = (r, float(t), exp)
solved = collections.Counter(); wrong = collections.Counter(); tot = collections.Counter()
print('| file | ' + ' | '.join(cfgs) + ' |')
print('|---|' + '---|' * len(cfgs))
for f, d in rows.items():
    if not all(c in d for c in cfgs):
        continue
    cells = []
    for c in cfgs:
        r, t, exp = d[c]
        if r in ('sat', 'unsat'):
            if r == exp: solved[c] += 1; tot[c] += t; cells.append(f'{t:.2f}')
            else: wrong[c] += 1; cells.append(f'WRONG {r}')
        else:
            cells.append('–')
    name = f.split('/')[-1].replace('_000.smt2', '')
    print(f'| {name} | ' + ' | '.join(cells) + ' |')
print()
print('solved: ' + ', '.join(f'{c} {solved[c]} ({tot[c]:.1f} s)' for c in cfgs) + '; wrong: ' + ', '.join(f'{c} {wrong[c]}' for c in cfgs))
