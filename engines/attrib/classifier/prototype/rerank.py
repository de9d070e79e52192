"""A second stage for the technique classifier: re-rank the linear model's top-k candidate labels per sentence with a
gradient-boosted model (XGBoost stand-in) over pair features. Training split only, build.ts's five folds
(dump-split.ts writes them); the held-out part is never read.

  /usr/bin/python3 rerank.py SPLIT.json BUNDLE.json BASE [BASE2] [--k 5,10] [--rounds 300] [--depth 4] [--no-knn] [--no-text] [--no-procmax]

BASE (and optionally BASE2) are prefixes of build.ts `--oof` fold files (BASE.fold-F.json), such as the SVM's
OOF.svm; the first is the base whose top-k are re-ranked, the second only adds its scores as features. BUNDLE is
ATT&CK's enterprise-attack.json (technique names, descriptions and detection texts).

Nested, as build.ts's blends: for each outer fold f, the re-ranker is trained on the candidate rows of the other four
folds, and k and the threshold are chosen on those four by an inner cross-validation (for each inner fold g a re-ranker
trained on the three others scores g); then the re-ranker trained on all four scores fold f with that k and threshold.
Pair features (per sentence and candidate): the base's score, rank, margins to the best and the next, softmax
probability; the second base's score, probability and rank; TF-IDF cosines of the sentence with the technique's name,
description, detection and procedure texts (their centroid and the best single text), BM25 against all of them, the
count of the technique's distinctive words present; the nearest training sentences of that label (kNN, other folds
only); the label's prior in the training rows; parent/sub-technique relations among the candidates; sentence length.
"""
import json, re, sys, time, numpy as np, scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize
import xgboost as xgb

args = sys.argv[1:]
def opt(name, default):
    if name in args:
        i = args.index(name); v = args[i + 1]; del args[i:i + 2]; return v
    return default
def flag(name):
    if name in args: args.remove(name); return True
    return False
KS = [int(x) for x in opt('--k', '5,10').split(',')]
ROUNDS = int(opt('--rounds', '300')); DEPTH = int(opt('--depth', '4')); ETA = float(opt('--eta', '0.05'))
NO_KNN = flag('--no-knn'); NO_TEXT = flag('--no-text'); NO_PROCMAX = flag('--no-procmax'); RANK = flag('--rank'); T_SVM = float(opt('--temp', '1'))
SPLIT, BUNDLE, BASES = args[0], args[1], args[2:]

D = json.load(open(SPLIT))
train = D['train']; n = len(train)
fold = np.array([e['fold'] for e in train])
labels = sorted({e['label'] for e in train}); L = {l: i for i, l in enumerate(labels)}; K = len(labels)
y = np.array([L[e['label']] for e in train])
texts = [e['text'] for e in train]

def load_oof(prefix):
    """Rows of fold f in training order, as build.ts's foldScores writes them."""
    S = np.zeros((n, K))
    for f in range(5):
        rows = json.load(open(f'{prefix}.fold-{f}.json'))
        idx = np.where(fold == f)[0]
        assert len(rows) == len(idx), prefix
        for i, r in zip(idx, rows):
            assert r['label'] == train[i]['label'] and r['labels'] == labels
            S[i] = r['logits']
    return S
S = [load_oof(b) for b in BASES]

# Technique texts from the bundle.
name, desc, det = {}, {}, {}
for o in json.load(open(BUNDLE))['objects']:
    if o.get('type') != 'attack-pattern' or o.get('revoked') or o.get('x_mitre_deprecated'): continue
    tid = next((r['external_id'] for r in o.get('external_references', []) if r.get('source_name') == 'mitre-attack'), None)
    if tid in L:
        clean = lambda s: re.sub(r'\(Citation:[^)]*\)', '', re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', s or ''))
        name[tid] = o.get('name', ''); desc[tid] = clean(o.get('description')); det[tid] = clean(o.get('x_mitre_detection'))
procs = [[] for _ in range(K)]
for e in D['procAll']:
    if e['label'] in L: procs[L[e['label']]].append(e['text'])
proc_texts = [t for k in range(K) for t in procs[k]]; proc_lab = np.array([k for k in range(K) for _ in procs[k]])

# TF-IDF fitted on ATT&CK's texts only (no TRAM sentence), words and character n-grams as the base model.
corpus = proc_texts + [name.get(l, '') + ' ' + desc.get(l, '') + ' ' + det.get(l, '') for l in labels]
vw = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, token_pattern=r'[\w]+').fit(corpus)
vc = TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 5), min_df=2, sublinear_tf=True, max_features=60000).fit(corpus)
def vec(xs): return normalize(sp.hstack([vw.transform(xs), vc.transform(xs)]).tocsr())
X = vec(texts)
NAME = vec([name.get(l, '') for l in labels]); DESC = vec([desc.get(l, '') for l in labels]); DET = vec([det.get(l, '') for l in labels])
P = vec(proc_texts)
CENT = normalize(sp.vstack([sp.csr_matrix(P[proc_lab == k].sum(0)) if (proc_lab == k).any() else sp.csr_matrix((1, P.shape[1])) for k in range(K)]).tocsr())
cos_name = (X @ NAME.T).toarray(); cos_desc = (X @ DESC.T).toarray(); cos_det = (X @ DET.T).toarray(); cos_cent = (X @ CENT.T).toarray()
XP = (X @ P.T).toarray()
proc_max = np.zeros((n, K)); proc_top3 = np.zeros((n, K))
for k in range(K):
    m = proc_lab == k
    if m.any():
        s = np.sort(XP[:, m], 1)[:, ::-1]; proc_max[:, k] = s[:, 0]; proc_top3[:, k] = s[:, :3].mean(1)
del XP

# BM25 over each technique's document (name, description, detection, procedure texts), word tokens.
tok = lambda s: re.findall(r'[a-z0-9_]+', s.lower())
docs = [tok(name.get(l, '') + ' ' + desc.get(l, '') + ' ' + det.get(l, '') + ' ' + ' '.join(procs[k])) for k, l in enumerate(labels)]
df = {}
for d in docs:
    for w in set(d): df[w] = df.get(w, 0) + 1
avg = np.mean([len(d) for d in docs]); tfs = [{} for _ in docs]
for k, d in enumerate(docs):
    for w in d: tfs[k][w] = tfs[k].get(w, 0) + 1
def bm25(q):
    out = np.zeros(K)
    for w in set(tok(q)):
        if w not in df: continue
        idf = np.log(1 + (K - df[w] + 0.5) / (df[w] + 0.5))
        for k in range(K):
            f = tfs[k].get(w, 0)
            if f: out[k] += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len(docs[k]) / avg))
    return out
BM = np.array([bm25(t) for t in texts])
# Distinctive words: the 40 words of each technique's document with the highest tf x idf across the 50 documents (length >= 3).
dist = []
for k in range(K):
    sc = sorted(((tfs[k][w] * np.log(K / df[w]), w) for w in tfs[k] if len(w) >= 3 and df[w] <= K // 5), reverse=True)
    dist.append({w for _, w in sc[:40]})
toks = [set(tok(t)) for t in texts]
KW = np.array([[len(toks[i] & dist[k]) for k in range(K)] for i in range(n)], dtype=float)
# Kept the tram sentence vectors for kNN (reference: training sentences of the allowed folds).
XX = (X @ X.T).toarray(); np.fill_diagonal(XX, -1)
ntok = np.array([len(tok(t)) for t in texts]); nchar = np.array([len(t) for t in texts])
parent = [l.split('.')[0] for l in labels]

def softmax(Z):
    Z = Z - Z.max(1, keepdims=True); E = np.exp(Z); return E / E.sum(1, keepdims=True)

def knn(rows, ref_mask):
    """Per row and label: the best and the mean of the 3 best cosines with reference sentences of that label."""
    A = XX[np.ix_(rows, np.where(ref_mask)[0])]; yl = y[ref_mask]
    best = np.zeros((len(rows), K)); m3 = np.zeros((len(rows), K))
    for k in range(K):
        m = yl == k
        if m.any():
            s = np.sort(A[:, m], 1)[:, ::-1]; best[:, k] = s[:, 0]; m3[:, k] = s[:, :3].mean(1)
    return best, m3

def features(rows, k, ref_mask, prior):
    """Candidate rows (sentence, label) for `rows`: the base's top k labels, with pair features."""
    S0 = S[0][rows]; P0 = softmax(T_SVM * S0); order = np.argsort(-S0, 1, kind='stable')[:, :k]
    kb, k3 = (np.zeros((len(rows), K)), np.zeros((len(rows), K))) if NO_KNN else knn(rows, ref_mask)
    extra = [(softmax(Sb[rows]), Sb[rows], np.argsort(np.argsort(-Sb[rows], 1), 1)) for Sb in S[1:]]
    F, G, Y = [], [], []
    for j, i in enumerate(rows):
        cand = order[j]; top = S0[j, cand[0]]; second = S0[j, cand[1]]
        cpar = [parent[c] for c in cand]
        for r, c in enumerate(cand):
            f = [S0[j, c], r, S0[j, c] - top, S0[j, c] - (second if r == 0 else top), P0[j, c], prior[c], ntok[i], nchar[i],
                 sum(1 for q in cpar if q == parent[c]) - 1, float('.' in labels[c]), float(any(labels[q] == parent[c] for q in cand)),
                 sum(P0[j, q] for q in cand if parent[q] == parent[c])]
            for Pb, Sb, Rb in extra: f += [Sb[j, c], Pb[j, c], Rb[j, c]]
            if not NO_TEXT:
                # (the order of the columns matters to colsample's seeded draw: the published figures used this one)
                f += [cos_name[i, c], cos_desc[i, c], cos_det[i, c], cos_cent[i, c]] + ([] if NO_PROCMAX else [proc_max[i, c], proc_top3[i, c]]) + [BM[i, c], KW[i, c],
                      BM[i, c] - BM[i].max()] + ([] if NO_PROCMAX else [proc_max[i, c] - proc_max[i, cand].max()])
            if not NO_KNN: f += [kb[j, c], k3[j, c], kb[j, c] - kb[j, cand].max()]
            F.append(f); Y.append(float(c == y[i]))
        G.append(k)
    return np.array(F), np.array(Y), np.array(G), order

def fit(F, Y, G):
    params = {'max_depth': DEPTH, 'eta': ETA, 'subsample': 0.8, 'colsample_bytree': 0.8, 'min_child_weight': 2, 'seed': 0, 'nthread': 1,
              'objective': 'rank:pairwise' if RANK else 'binary:logistic'}
    d = xgb.DMatrix(F, label=Y)
    if RANK: d.set_group(G)
    return xgb.train(params, d, ROUNDS)

def decide(model, F, G, order):
    """Top candidate per sentence and its probability (softmax of the re-ranker's margins over the candidates)."""
    m = model.predict(xgb.DMatrix(F), output_margin=True).reshape(len(G), G[0])
    pick = m.argmax(1); p = softmax(m).max(1)
    if not RANK: p = 1 / (1 + np.exp(-m.max(1)))
    return order[np.arange(len(G)), pick], p

def best_threshold(pred, p, rows):
    right = pred == y[rows]; best = (0.0, -1)
    for t in np.arange(0, 1, 0.01):
        kept = p >= t; f1 = 2 * (right & kept).sum() / (kept.sum() + len(rows))
        if f1 > best[1] + 1e-12: best = (round(t, 2), f1)
    return best

def prior_of(mask):
    c = np.bincount(y[mask], minlength=K); return c / c.sum()

started = time.time()
tp = kept_n = right_n = 0; chosen = []
base_top1 = (S[0].argmax(1) == y).mean()
for f in range(5):
    inner = np.where(fold != f)[0]; outer = np.where(fold == f)[0]
    best = None
    for k in KS:
        preds, ps, rws = [], [], []
        for g in range(5):
            if g == f: continue
            tr = np.where((fold != f) & (fold != g))[0]; te = np.where(fold == g)[0]
            ref = (fold != f) & (fold != g)
            # Training rows' kNN features exclude their own fold as well (a row never meets itself or its fold).
            Ftr = []; Ytr = []; Gtr = []
            for h in range(5):
                if h in (f, g): continue
                rows = np.where(fold == h)[0]
                a, b, c_, _ = features(rows, k, ref & (fold != h), prior_of(ref))
                Ftr.append(a); Ytr.append(b); Gtr.append(c_)
            model = fit(np.vstack(Ftr), np.concatenate(Ytr), np.concatenate(Gtr))
            a, _, c_, o = features(te, k, ref, prior_of(ref))
            pr, p = decide(model, a, c_, o); preds.append(pr); ps.append(p); rws.append(te)
        t, f1 = best_threshold(np.concatenate(preds), np.concatenate(ps), np.concatenate(rws))
        if best is None or f1 > best[2] + 1e-12: best = (k, t, f1)
    k, t, _ = best; chosen.append((k, t, round(best[2], 4)))
    ref = fold != f
    Ftr = []; Ytr = []; Gtr = []
    for h in range(5):
        if h == f: continue
        rows = np.where(fold == h)[0]
        a, b, c_, _ = features(rows, k, ref & (fold != h), prior_of(ref))
        Ftr.append(a); Ytr.append(b); Gtr.append(c_)
    model = fit(np.vstack(Ftr), np.concatenate(Ytr), np.concatenate(Gtr))
    a, _, c_, o = features(outer, k, ref, prior_of(ref))
    pr, p = decide(model, a, c_, o)
    right = pr == y[outer]; kp = p >= t
    tp += (right & kp).sum(); kept_n += kp.sum(); right_n += right.sum()
    print(f'fold {f}: k {k} threshold {t} inner {best[2]:.4f}; top-1 {right.mean():.4f}, base {(S[0][outer].argmax(1) == y[outer]).mean():.4f} ({time.time() - started:.0f} s)', file=sys.stderr)
recall_k = {k: float(np.mean([y[i] in np.argsort(-S[0][i])[:k] for i in range(n)])) for k in KS}
print(json.dumps({'bases': BASES, 'k': KS, 'rounds': ROUNDS, 'depth': DEPTH, 'eta': ETA, 'rank': RANK, 'knn': not NO_KNN, 'text': not NO_TEXT, 'procmax': not NO_PROCMAX,
                  'base_top1': round(base_top1, 4), 'recall_at_k': recall_k, 'chosen': chosen,
                  'nested_micro_f1': round(2 * tp / (kept_n + n), 4), 'top1': round(right_n / n, 4), 'seconds': round(time.time() - started)}))
