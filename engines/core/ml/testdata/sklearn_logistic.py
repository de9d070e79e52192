# Oracle for linear.test.ts: scikit-learn's LogisticRegression (lbfgs, tight tolerance) on standardised features, one fit per requested case (C, optional sample weights).
import json, sys
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

req = json.load(sys.stdin)
X = np.asarray(req["x"], dtype=np.float64)
y = np.asarray(req["y"], dtype=np.float64)
Z = StandardScaler().fit_transform(X)
out = []
for case in req["cases"]:
    w = None if case.get("weights") is None else np.asarray(case["weights"], dtype=np.float64)
    clf = LogisticRegression(C=case["C"], tol=1e-12, max_iter=100000, solver="lbfgs").fit(Z, y, sample_weight=w)
    out.append({"coef": clf.coef_[0].tolist(), "intercept": float(clf.intercept_[0])})
json.dump(out, sys.stdout)
