# Oracle for stats.test.ts: Student-t and normal quantiles and CDFs and Wilson intervals from scipy.
import json, sys
from scipy import stats

req = json.load(sys.stdin)
out = {
    "t_ppf": [stats.t.ppf(p, df) for p, df in req["t_ppf"]],
    "t_cdf": [stats.t.cdf(t, df) for t, df in req["t_cdf"]],
    "norm_ppf": [stats.norm.ppf(p) for p in req["norm_ppf"]],
    "norm_cdf": [stats.norm.cdf(x) for x in req["norm_cdf"]],
    "wilson": [list(stats.binomtest(k, n).proportion_ci(method="wilson")) for k, n in req["wilson"]],
}
json.dump(out, sys.stdout)
