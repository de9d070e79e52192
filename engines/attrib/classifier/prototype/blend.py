"""Nested blends of the out-of-fold scores that oof.py saves (training split only; the held-out part is never read).

For each fold: on the other four folds fit one weight per model (multinomial log-loss of the softmax of the weighted
sum of the models' log-probabilities or scores) and choose the threshold (best micro-F1 of the kept top-1 labels); apply
both to the fold. A single model goes through the same procedure, so the figures compare fairly:

  nice /usr/bin/python3 engines/attrib/classifier/prototype/blend.py SPLIT.json OUTDIR lr-procCapped-0.3 svm-procAll-0.3+nbsvm-procAll-0.3
"""
import sys, json, numpy as np
from scipy.optimize import minimize
D = json.load(open(sys.argv[1])); OUT = sys.argv[2]
labels = sorted({e['label'] for e in D['train']}); L = {l: i for i, l in enumerate(labels)}
y = np.array([L[e['label']] for e in D['train']]); fold = np.array([e['fold'] for e in D['train']]); n = len(y)
def load(name):
    P = np.load(f'{OUT}/oof-{name}.npy')
    if name.startswith('lr'): P = np.log(np.clip(P, 1e-12, 1))
    return P - P.mean(1, keepdims=True)
def softmax(S):
    S = S - S.max(1, keepdims=True); E = np.exp(S); return E / E.sum(1, keepdims=True)
def nll(a, Ss, idx):
    Z = sum(ai * S[idx] for ai, S in zip(a, Ss)); Z = Z - Z.max(1, keepdims=True)
    return -(Z[np.arange(len(idx)), y[idx]] - np.log(np.exp(Z).sum(1))).mean()
def best_t(P, idx):
    top, p = P[idx].argmax(1), P[idx].max(1); right = top == y[idx]; best = (0, -1)
    for t in np.arange(0, 1, 0.01):
        k = p >= t; f = 2 * (right & k).sum() / (k.sum() + len(idx))
        if f > best[1] + 1e-12: best = (t, f)
    return best[0]
def nested(names):
    Ss = [load(m) for m in names]; tp = kept = top1 = 0
    for f in range(5):
        inn, out = np.where(fold != f)[0], np.where(fold == f)[0]
        a = minimize(nll, np.ones(len(Ss)), args=(Ss, inn), method='L-BFGS-B', bounds=[(0, 50)] * len(Ss)).x
        P = softmax(sum(ai * S for ai, S in zip(a, Ss))); t = best_t(P, inn)
        right = P[out].argmax(1) == y[out]; k = P[out].max(1) >= t
        tp += (right & k).sum(); kept += k.sum(); top1 += right.sum()
    return round(top1 / n, 4), round(2 * tp / (kept + n), 4), np.round(a, 2)
for spec in sys.argv[3:]: print(spec, *nested(spec.split('+')), flush=True)
