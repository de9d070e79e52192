# Variables picked out by secret words in their names.
import os
WORDS = ("TOKEN", "SECRET", "KEY", "PASS")
# ruleid: collects_secret_variables
found = {k: v for k, v in os.environ.items() if any(w in k.upper() for w in WORDS)}
