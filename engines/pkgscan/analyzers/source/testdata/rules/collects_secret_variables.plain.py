# A loop over the environment in a file without secret words: an ordinary configuration reader.
import os
# ok: collects_secret_variables
for name in os.environ:
    if name.startswith("MYAPP_"):
        settings[name[6:].lower()] = os.environ[name]
