# Oracle for metrics.test.ts and calibration.test.ts: ROC AUC, average precision, ROC curve, Platt and isotonic fits from scikit-learn.
import json, sys
import numpy as np
from sklearn.metrics import roc_auc_score, average_precision_score, roc_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.calibration import _sigmoid_calibration

req = json.load(sys.stdin)
out = []
for case in req["cases"]:
    s = np.asarray(case["scores"], dtype=np.float64)
    y = np.asarray(case["labels"], dtype=np.float64)
    grid = np.asarray(case["grid"], dtype=np.float64)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    a, b = _sigmoid_calibration(s, y)
    iso = IsotonicRegression(out_of_bounds="clip").fit(s, y)
    out.append({
        "auc": roc_auc_score(y, s),
        "ap": average_precision_score(y, s),
        "roc_fpr": fpr.tolist(),
        "roc_tpr": tpr.tolist(),
        "platt_a": float(a),
        "platt_b": float(b),
        "isotonic": iso.predict(grid).tolist(),
    })
json.dump(out, sys.stdout)
