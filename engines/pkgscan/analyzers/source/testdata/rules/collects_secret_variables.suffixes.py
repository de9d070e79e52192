# Variables picked out by the ends and starts of their names (vendors' prefixes, _API_KEY and _TOKEN suffixes).
import os
wanted = ("OPENAI", "ANTHROPIC", "HF_TOKEN", "AWS_ACCESS", "AWS_SECRET")
# ruleid: collects_secret_variables
keys = {k: v for k, v in os.environ.items() if k.startswith(wanted) or k.endswith(("_API_KEY", "_TOKEN", "_SECRET"))}
_KEYS = ("TOKEN", "KEY", "SECRET", "PASS", "AWS")
# ruleid: collects_secret_variables
env = {k: v for k, v in os.environ.items() if any(t in k.upper() for t in _KEYS)}
