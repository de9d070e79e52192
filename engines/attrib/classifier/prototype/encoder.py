"""Stand-ins for a sentence encoder in the technique classifier (Universal Sentence Encoder lite, 512-d).

Training split only, build.ts's five folds (dump-split.ts writes them); the held-out part is never read. The vectors come
from encoder-embed.ts (DIR/emb-train.f32, DIR/emb-procAll.f32). The shipped model's and the SVM's out-of-fold logits are
build.ts's `--oof` fold files (OOF.fold-F.json, OOF.svm.fold-F.json). Run with Debian's Python (it has scikit-learn):

  nice /usr/bin/python3 encoder.py SPLIT.json DIR alone lr:10 lr:100 svm:1        encoder vector alone (all procedure texts at 0.3), saves DIR/oof/enc-*.npy
  nice /usr/bin/python3 encoder.py SPLIT.json DIR blend OOF.json enc-lr-10 ...   blends with the shipped model / the SVM, and kNN over the vectors
  nice /usr/bin/python3 encoder.py SPLIT.json DIR block C GLOVE.json 0 0.5 1.0    the vector x alpha as a dense block beside the stand-in SVM's rows

Every figure is printed as top-1 and micro-F1; "nested" chooses each fold's blend weights (multinomial log-loss, or a
grid searched for micro-F1) and threshold on the other four folds, as blend.py and build.ts do.
"""
import json, os, sys, time, numpy as np, scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC

D = json.load(open(sys.argv[1])); DIR = sys.argv[2]; what = sys.argv[3]; args = sys.argv[4:]
os.makedirs(f'{DIR}/oof', exist_ok=True)
labels = sorted({e['label'] for e in D['train']}); L = {l: i for i, l in enumerate(labels)}
y = np.array([L[e['label']] for e in D['train']]); fold = np.array([e['fold'] for e in D['train']]); n = len(y); K = len(labels)
py = np.array([L[e['label']] for e in D['procAll']])
E = normalize(np.fromfile(f'{DIR}/emb-train.f32', dtype=np.float32).reshape(n, 512))
PE = normalize(np.fromfile(f'{DIR}/emb-procAll.f32', dtype=np.float32).reshape(-1, 512))

def softmax(S):
    S = S - S.max(1, keepdims=True); X = np.exp(S); return X / X.sum(1, keepdims=True)
def center(S): return S - S.mean(1, keepdims=True)
def best_t(P, idx):
    top, p = P[idx].argmax(1), P[idx].max(1); right = top == y[idx]; best = (0, -1)
    for t in np.arange(0, 1, 0.01):
        k = p >= t; f = 2 * (right & k).sum() / (k.sum() + len(idx))
        if f > best[1] + 1e-12: best = (round(t, 2), f)
    return best
def f1_best(P):
    t, f = best_t(P, np.arange(n)); return round((P.argmax(1) == y).mean(), 4), (t, round(f, 4))
def nll(a, Ss, idx):
    Z = sum(ai * S[idx] for ai, S in zip(a, Ss)); Z = Z - Z.max(1, keepdims=True)
    return -(Z[np.arange(len(idx)), y[idx]] - np.log(np.exp(Z).sum(1))).mean()
def nested(Ss, grid=None):
    """Per fold, on the other four: weights by log-loss (or, with grid, relative weights for micro-F1 and a log-loss temperature), then the threshold."""
    tp = kept = top1 = 0
    for f in range(5):
        inn, out = np.where(fold != f)[0], np.where(fold == f)[0]
        a = minimize(nll, np.ones(len(Ss)), args=(Ss, inn), method='L-BFGS-B', bounds=[(0, 50)] * len(Ss)).x
        if grid is not None:
            best = None
            for g in grid:
                Z = sum(gi * S for gi, S in zip(g, Ss))
                T = minimize(lambda t: nll([t[0]], [Z], inn), [1.0], method='L-BFGS-B', bounds=[(0, 50)]).x[0]
                fi = best_t(softmax(T * Z), inn)[1]
                if best is None or fi > best[0] + 1e-12: best = (fi, [T * gi for gi in g])
            a = best[1]
        P = softmax(sum(ai * S for ai, S in zip(a, Ss))); t = best_t(P, inn)[0]
        right = P[out].argmax(1) == y[out]; k = P[out].max(1) >= t
        tp += (right & k).sum(); kept += k.sum(); top1 += right.sum()
    return round(top1 / n, 4), round(2 * tp / (kept + n), 4), np.round(a, 2)
def nested_plain(P):
    tp = kept = 0
    for f in range(5):
        inn, out = np.where(fold != f)[0], np.where(fold == f)[0]; t = best_t(P, inn)[0]
        right = P[out].argmax(1) == y[out]; k = P[out].max(1) >= t; tp += (right & k).sum(); kept += k.sum()
    return round(2 * tp / (kept + n), 4)
def ts(prefix):
    S = np.zeros((n, K))
    for f in range(5):
        d = json.load(open(f'{prefix}.fold-{f}.json')); assert [x['label'] for x in d] == list(np.array(labels)[y[fold == f]])
        S[fold == f] = np.array([x['logits'] for x in d])
    return S

if what == 'alone':
    for spec in args:
        model, C = spec.split(':'); C = float(C); S = np.zeros((n, K)); t0 = time.time()
        for f in range(5):
            tr, te = np.where(fold != f)[0], np.where(fold == f)[0]
            X = np.vstack([E[tr], PE]); yy = np.concatenate([y[tr], py]); w = np.concatenate([np.ones(len(tr)), 0.3 * np.ones(len(py))])
            if model == 'lr': S[te] = np.log(np.clip(LogisticRegression(C=C, max_iter=1000, tol=1e-5).fit(X, yy, sample_weight=w).predict_proba(E[te]), 1e-12, 1))
            else: S[te] = LinearSVC(C=C).fit(X, yy, sample_weight=w).decision_function(E[te])
        np.save(f'{DIR}/oof/enc-{model}-{spec.split(":")[1]}.npy', S)
        print(spec, 'top-1, best', f1_best(softmax(S)), 'nested', nested([center(S)])[:2], f'{time.time() - t0:.0f} s', flush=True)
elif what == 'blend':
    LR = ts(args[0]); SV = ts(args[0] + '.svm')
    print('shipped model: top-1, best', f1_best(softmax(LR)), 'nested', nested_plain(softmax(LR)), 'calibrated', nested([center(LR)])[:2])
    print('SVM: top-1, best', f1_best(softmax(SV)), 'nested calibrated', nested([center(SV)])[:2])
    LR, SV = center(LR), center(SV); enc = {a: center(np.load(f'{DIR}/oof/{a}.npy')) for a in args[1:]}
    for k in (5, 10, 20):  # similarity-weighted votes of the k nearest TRAM training sentences of the other folds
        Q = np.zeros((n, K))
        for f in range(5):
            tr, te = np.where(fold != f)[0], np.where(fold == f)[0]; Sim = E[te] @ E[tr].T
            for r, row in enumerate(Sim):
                for j in np.argsort(-row)[:k]: Q[te[r], y[tr[j]]] += max(row[j], 0)
        Q /= np.maximum(Q.sum(1, keepdims=True), 1e-12); print('kNN', k, 'alone: top-1, best', f1_best(Q)); enc[f'knn-{k}'] = center(np.log(Q + 1e-3))
    grid = [(1, g) for g in (0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)]
    for bn, B in (('shipped model', LR), ('SVM', SV)):
        for en, S in enc.items(): print(bn, '+', en, 'nested by log-loss', nested([B, S]), 'by micro-F1', nested([B, S], grid), flush=True)
    for en, S in enc.items(): print('shipped model + SVM +', en, 'nested by log-loss', nested([LR, SV, S]), flush=True)
elif what == 'block':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from sklearn.feature_extraction.text import TfidfVectorizer
    from standin import embed_rows, terms, tokens
    C = float(args[0]); alphas = [float(a) for a in args[2:]]
    texts = [e['text'] for e in D['train']]; pt = [e['text'] for e in D['procAll']]
    V = json.load(open(args[1]))['vectors']; words = {w for t in texts + pt for w in tokens(t)}
    G = {w: np.array(V[w][:100], dtype=np.float32) for w in words if w in V}; del V
    S = {a: np.zeros((n, K)) for a in alphas}
    for f in range(5):
        tr, te = np.where(fold != f)[0], np.where(fold == f)[0]
        v = TfidfVectorizer(analyzer=terms, min_df=2, max_features=40000, sublinear_tf=True, norm='l2')
        Xtr = v.fit_transform([texts[i] for i in tr] + pt).tocsr(); Xte = v.transform([texts[i] for i in te]).tocsr()
        Xtr = sp.hstack([Xtr, embed_rows(G, [texts[i] for i in tr] + pt, v, 0.8)]).tocsr(); Xte = sp.hstack([Xte, embed_rows(G, [texts[i] for i in te], v, 0.8)]).tocsr()
        ytr = np.concatenate([y[tr], py]); w = np.concatenate([np.ones(len(tr)), 0.3 * np.ones(len(py))])
        for a in alphas:
            A = sp.hstack([Xtr, sp.csr_matrix(a * np.vstack([E[tr], PE]))]).tocsr() if a > 0 else Xtr
            B = sp.hstack([Xte, sp.csr_matrix(a * E[te])]).tocsr() if a > 0 else Xte
            S[a][te] = LinearSVC(C=C).fit(A, ytr, sample_weight=w).decision_function(B)
    for a in alphas:
        np.save(f'{DIR}/oof/block-C{args[0]}-a{a}.npy', S[a])
        print('SVM C', C, 'block x', a, 'top-1, best', f1_best(softmax(3 * S[a])), 'nested calibrated', nested([center(S[a])])[:2], flush=True)
