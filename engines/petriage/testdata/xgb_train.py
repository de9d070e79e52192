# Oracle for the boosted-model comparison: trains python3-xgboost (hist) on the vectors given as JSON on stdin; prints test probabilities and the training time.
import json
import sys
import time

import numpy as np
import xgboost as xgb

req = json.load(sys.stdin)
cols = req["cols"]
train_x = np.asarray(req["train_x"], dtype=np.float64).reshape(-1, cols)
test_x = np.asarray(req["test_x"], dtype=np.float64).reshape(-1, cols)
params = {"objective": "binary:logistic", "tree_method": "hist", "nthread": int(req.get("nthread", 1)), **req["params"]}
dtrain = xgb.DMatrix(train_x, label=np.asarray(req["train_y"]), missing=np.nan)
dtest = xgb.DMatrix(test_x, missing=np.nan)
cpu0 = time.process_time()
wall0 = time.perf_counter()
booster = xgb.train(params, dtrain, num_boost_round=int(req["rounds"]))
wall = time.perf_counter() - wall0
cpu = time.process_time() - cpu0
print(json.dumps({"version": xgb.__version__, "seconds": wall, "cpu_seconds": cpu, "predictions": booster.predict(dtest).tolist()}))
