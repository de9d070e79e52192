# Oracle for svm.test.ts: scikit-learn's LinearSVC (liblinear's dual coordinate descent, tight tolerance) on sparse rows, one fit per requested case (C, loss, optional sample weights).
import json, sys
import numpy as np
from scipy.sparse import csr_matrix
from sklearn.svm import LinearSVC

req = json.load(sys.stdin)
X = csr_matrix((req["val"], req["idx"], req["start"]), shape=(len(req["start"]) - 1, req["cols"]))
y = np.asarray(req["y"])
out = []
for case in req["cases"]:
    w = None if case.get("weights") is None else np.asarray(case["weights"], dtype=np.float64)
    clf = LinearSVC(C=case["C"], loss=case["loss"], dual=True, tol=1e-10, max_iter=1000000, intercept_scaling=1.0).fit(X, y, sample_weight=w)
    out.append({"coef": clf.coef_.tolist(), "intercept": clf.intercept_.tolist()})
json.dump(out, sys.stdout)
