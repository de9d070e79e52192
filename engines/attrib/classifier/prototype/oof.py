"""Out-of-fold scores of scikit-learn stand-ins on the training split, saved for blend.py.

Reads the split that dump-split.ts writes (the training part only, with build.ts's five folds); the held-out part is
never read. Each SPEC is MODEL:PROCEDURES:WEIGHT, MODEL one of lr (the shipped model's replica), svm (linear SVM,
C = 0.5), nbsvm (one SVM per label over features scaled by its naive Bayes log-count ratio), svm-glove / lr-glove (the
SVM or the replica with an idf-weighted GloVe mean x 0.8 beside the TF-IDF row; needs GLOVE.json), PROCEDURES procCapped (at most 30 per label, as
shipped) or procAll (all 7,675 texts):

  nice /usr/bin/python3 engines/attrib/classifier/prototype/oof.py SPLIT.json OUTDIR [--glove GLOVE.json] SPEC...

Writes OUTDIR/oof-MODEL-PROCEDURES-WEIGHT.npy (sentences x labels: probabilities for lr and lr-glove, scores otherwise) and prints
out-of-fold top-1 and the best (threshold, micro-F1); blend.py chooses weights and thresholds nested.
"""
import json, sys, time, numpy as np, scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from standin import embed_rows, f1_at, softmax, terms, tokens

args = sys.argv[1:]
glove = None
if '--glove' in args:
    at = args.index('--glove'); glove = args[at + 1]; del args[at:at + 2]
split, outdir, specs = args[0], args[1], args[2:]
D = json.load(open(split))
texts = [e['text'] for e in D['train']]; fold = np.array([e['fold'] for e in D['train']])
labels = sorted({e['label'] for e in D['train']}); L = {l: i for i, l in enumerate(labels)}
y = np.array([L[e['label']] for e in D['train']]); K = len(labels)
G = {}
if glove is not None:
    V = json.load(open(glove))['vectors']; words = {w for t in texts + [e['text'] for e in D['procAll']] for w in tokens(t)}
    G = {w: np.array(V[w][:100], dtype=np.float32) for w in words if w in V}; del V

def scores(model, procs, pw):
    pt = [e['text'] for e in D[procs]]; py = np.array([L[e['label']] for e in D[procs]])
    P = np.zeros((len(y), K))
    for f in range(5):
        tr, te = np.where(fold != f)[0], np.where(fold == f)[0]
        v = TfidfVectorizer(analyzer=terms, min_df=2, max_features=40000, sublinear_tf=True, norm='l2')
        Xtr = v.fit_transform([texts[i] for i in tr] + pt).tocsr(); Xte = v.transform([texts[i] for i in te]).tocsr()
        ytr = np.concatenate([y[tr], py]); w = np.concatenate([np.ones(len(tr)), pw * np.ones(len(py))])
        if model == 'lr':  # C = 1 / (3e-6 x weighted examples), as SHIPPED_TRAINING
            P[te] = LogisticRegression(C=1 / (3e-6 * w.sum()), max_iter=300, tol=1e-5).fit(Xtr, ytr, sample_weight=w).predict_proba(Xte)
        elif model == 'svm':
            P[te] = LinearSVC(C=0.5).fit(Xtr, ytr, sample_weight=w).decision_function(Xte)
        elif model in ('svm-glove', 'lr-glove'):
            Xtr = sp.hstack([Xtr, embed_rows(G, [texts[i] for i in tr] + pt, v, 0.8)]).tocsr()
            Xte = sp.hstack([Xte, embed_rows(G, [texts[i] for i in te], v, 0.8)]).tocsr()
            if model == 'lr-glove':
                P[te] = LogisticRegression(C=1 / (3e-6 * w.sum()), max_iter=300, tol=1e-5).fit(Xtr, ytr, sample_weight=w).predict_proba(Xte)
            else:
                P[te] = LinearSVC(C=0.5).fit(Xtr, ytr, sample_weight=w).decision_function(Xte)
        elif model == 'nbsvm':
            B = (Xtr > 0).astype(np.float64).multiply(w[:, None]).tocsr()
            for k in range(K):
                pos = ytr == k; p = 1 + np.asarray(B[pos].sum(0)).ravel(); q = 1 + np.asarray(B[~pos].sum(0)).ravel()
                r = np.log((p / p.sum()) / (q / q.sum()))
                P[te, k] = LinearSVC(C=0.5).fit(Xtr.multiply(r).tocsr(), pos.astype(int), sample_weight=w).decision_function(Xte.multiply(r).tocsr())
        else:
            raise SystemExit(f'unknown model {model}')
    return P

for spec in specs:
    model, procs, pw = spec.split(':'); t0 = time.time()
    P = scores(model, procs, float(pw))
    np.save(f'{outdir}/oof-{model}-{procs}-{pw}.npy', P)
    print(spec, f1_at(P if model.startswith('lr') else softmax(3 * P), y), f'{time.time() - t0:.0f} s', flush=True)
