# Oracle for the gbdt, treeshap and xgboost-import tests: trains XGBoost (hist) on the given rows and returns its predictions, TreeSHAP contributions and model dumps.
import json, sys
import numpy as np
import xgboost as xgb

req = json.load(sys.stdin)


def matrix(rows):
    return np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=np.float32)


X = matrix(req["train_x"])
y = np.asarray(req["train_y"], dtype=np.float32)
T = matrix(req["test_x"])
params = dict(req["params"])
params.setdefault("tree_method", "hist")
params["nthread"] = 1
dtrain = xgb.DMatrix(X, label=y, missing=np.nan)
bst = xgb.train(params, dtrain, num_boost_round=req["rounds"])
dtest = xgb.DMatrix(T, missing=np.nan)
out = {
    "version": xgb.__version__,
    "pred_train_margin": bst.predict(dtrain, output_margin=True).astype(float).tolist(),
    "pred_test_margin": bst.predict(dtest, output_margin=True).astype(float).tolist(),
    "pred_test": bst.predict(dtest).astype(float).tolist(),
    "contribs_test": bst.predict(dtest, pred_contribs=True).astype(float).tolist(),
    "dump": bst.get_dump(dump_format="json", with_stats=True),
    "model": json.loads(bytes(bst.save_raw("json")).decode("utf-8")),
}
json.dump(out, sys.stdout)
