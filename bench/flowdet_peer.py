#!/usr/bin/python3
"""Peer side of `npm run bench -- flowdet`: trains xgboost / scikit-learn detectors on the split bench/flowdet.ts exported.

Usage: flowdet_peer.py TRAIN.csv TEST.csv
Both CSVs: a header line of feature names plus `label` (last column, 0 benign / 1 malicious), float values.
Prints one JSON object on stdout: versions and, per model, the training CPU seconds of each of FLOWDET_BENCH_REPEATS
fits (default 3) and their median, the scoring rate (rows per CPU second) of as many measures (each the test split
repeated until 0.3 s of CPU), accuracy, F1 and FPR at threshold 0.5; for logistic regression and the MLP also the
scoring rate from the (unstandardised) log features with the StandardScaler's transform timed (score_rates_log), and
where the model has one the solver's n_iter_ (L-BFGS iterations, MLP epochs); for logistic regression its coef_ and
intercept_ (coef, intercept), and the fits of a scikit-learn Pipeline of FunctionTransformer(np.log1p), StandardScaler and
the same LogisticRegression on the raw features (np.expm1 of the log features, taken before the clock starts), which
is what our train column times (pipeline_train_cpus, pipeline_n_iter, pipeline_accuracy / _f1 / _fpr).
A peer library that is not installed is left out (its key absent) and
named under "absent"; nothing is downloaded or installed. FLOWDET_PEER_MODELS (our kinds: gbdt, random_forest, logistic, mlp)
narrows the run to those kinds' peers, and FLOWDET_BENCH_PEERS (keys: xgboost, sk_hist_gb, ...) to those peers.
"""
import json
import os
import sys
import time

import numpy as np


def load(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)
    if header[-1] != "label":
        raise SystemExit("last column must be label")
    return data[:, :-1], data[:, -1].astype(np.int64)


def rates(p, t):
    pred = (p >= 0.5).astype(np.int64)
    tp = int(((pred == 1) & (t == 1)).sum())
    fp = int(((pred == 1) & (t == 0)).sum())
    tn = int(((pred == 0) & (t == 0)).sum())
    fn = int(((pred == 0) & (t == 1)).sum())
    return {"accuracy": (tp + tn) / len(t), "f1": 2 * tp / max(1, 2 * tp + fp + fn), "fpr": fp / max(1, fp + tn)}


def main():
    xtr, ytr = load(sys.argv[1])
    xte, yte = load(sys.argv[2])
    out = {"absent": []}
    kinds = set(os.environ.get("FLOWDET_PEER_MODELS", "gbdt,random_forest,logistic,mlp").split(","))
    peers = set(filter(None, os.environ.get("FLOWDET_BENCH_PEERS", "").split(",")))
    kind_of = {"xgboost": "gbdt", "sk_hist_gb": "gbdt", "sk_gb": "gbdt", "sk_random_forest": "random_forest",
               "sk_logistic": "logistic", "sk_mlp": "mlp"}

    repeats = max(1, int(os.environ.get("FLOWDET_BENCH_REPEATS", "3")))

    def run(name, fit, score, score_log=None):
        if kind_of[name] not in kinds or (peers and name not in peers):
            return
        # Each fit and each scoring measure is taken `repeats` times; the lists go out whole (the caller prints medians
        # and spreads) and train_cpu / score_cpu / rows keep the median fit and the summed scoring for older readers.
        train_cpus, score_rates = [], []
        total_cpu, total_rows = 0.0, 0
        for _ in range(repeats):
            c0 = time.process_time()
            m = fit()
            train_cpus.append(time.process_time() - c0)
        def measure(scorer):
            # Scoring repeated until 0.3 s of CPU per measure, as the TypeScript side does.
            reps, score_cpu = 0, 0.0
            while score_cpu < 0.3 or reps < 1:
                c0 = time.process_time()
                p = scorer(m)
                score_cpu += time.process_time() - c0
                reps += 1
            return p, reps, score_cpu

        for _ in range(repeats):
            p, reps, score_cpu = measure(score)
            score_rates.append(len(yte) * reps / max(score_cpu, 1e-9))
            total_cpu += score_cpu
            total_rows += int(len(yte)) * reps
        out[name] = {"train_cpu": sorted(train_cpus)[len(train_cpus) // 2], "train_cpus": train_cpus, "score_cpu": total_cpu,
                     "rows": total_rows, "score_rates": score_rates, **rates(np.asarray(p), yte)}
        if score_log is not None:
            # From the log features, with the standardisation our models do inside timed too.
            out[name]["score_rates_log"] = [len(yte) * r / max(c, 1e-9) for _, r, c in (measure(score_log) for _ in range(repeats))]
        coef = getattr(m, "coef_", None)
        if name == "sk_logistic" and coef is not None:
            # The weights in standardised space and the intercept, for the bench's max |w_ours - w_sklearn|.
            out[name]["coef"] = [float(v) for v in np.ravel(coef)]
            out[name]["intercept"] = float(np.ravel(m.intercept_)[0])
        n_iter = getattr(m, "n_iter_", None)
        if n_iter is not None:
            out[name]["n_iter"] = int(np.max(n_iter))

    try:
        import xgboost as xgb

        out["xgboost_version"] = xgb.__version__
        params = {"objective": "binary:logistic", "tree_method": "hist", "eta": 0.15, "max_depth": 6, "lambda": 1,
                  "min_child_weight": 1, "max_bin": 256, "nthread": 1, "seed": 0}
        run("xgboost", lambda: xgb.train(params, xgb.DMatrix(xtr, label=ytr), 150),
            lambda b: b.predict(xgb.DMatrix(xte)))
    except ImportError:
        out["absent"].append("xgboost")

    try:
        import sklearn
        from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingClassifier, RandomForestClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.neural_network import MLPClassifier
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import FunctionTransformer, StandardScaler

        out["sklearn_version"] = sklearn.__version__
        proba = lambda m: m.predict_proba(xte)[:, 1]
        run("sk_hist_gb", lambda: HistGradientBoostingClassifier(max_iter=150, learning_rate=0.15, max_depth=6, max_leaf_nodes=None,
                                                               min_samples_leaf=1, l2_regularization=1.0, max_bins=255,
                                                               early_stopping=False, random_state=0).fit(xtr, ytr), proba)
        run("sk_gb", lambda: GradientBoostingClassifier(n_estimators=150, learning_rate=0.15, max_depth=6, random_state=0).fit(xtr, ytr), proba)
        run("sk_random_forest", lambda: RandomForestClassifier(n_estimators=60, max_depth=10, max_features=0.6, n_jobs=1,
                                                               random_state=0).fit(xtr, ytr), proba)
        sc = StandardScaler().fit(xtr)
        ztr, zte = sc.transform(xtr), sc.transform(xte)
        run("sk_logistic", lambda: LogisticRegression(C=1.0, max_iter=1000).fit(ztr, ytr), lambda m: m.predict_proba(zte)[:, 1],
            lambda m: m.predict_proba(sc.transform(xte))[:, 1])
        if "sk_logistic" in out:
            # Like for like with our train column: raw features in, log1p and standardisation inside the timed fit.
            rtr, rte = np.expm1(xtr), np.expm1(xte)
            cpus = []
            for _ in range(repeats):
                c0 = time.process_time()
                pipe = make_pipeline(FunctionTransformer(np.log1p), StandardScaler(), LogisticRegression(C=1.0, max_iter=1000)).fit(rtr, ytr)
                cpus.append(time.process_time() - c0)
            out["sk_logistic"]["pipeline_train_cpus"] = cpus
            out["sk_logistic"]["pipeline_n_iter"] = int(np.max(pipe[-1].n_iter_))
            out["sk_logistic"].update({"pipeline_" + k: v for k, v in rates(pipe.predict_proba(rte)[:, 1], yte).items()})
        run("sk_mlp", lambda: MLPClassifier(hidden_layer_sizes=(32,), max_iter=30, batch_size=64, learning_rate_init=3e-3,
                                            alpha=1e-4, random_state=0).fit(ztr, ytr), lambda m: m.predict_proba(zte)[:, 1],
            lambda m: m.predict_proba(sc.transform(xte))[:, 1])
    except ImportError:
        out["absent"].append("scikit-learn")

    json.dump(out, sys.stdout)


if __name__ == "__main__":
    import warnings

    warnings.filterwarnings("ignore")
    main()
