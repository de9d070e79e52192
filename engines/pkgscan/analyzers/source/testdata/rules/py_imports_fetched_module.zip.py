# A zip fetched into the user's folder and loaded with zipimport.
import os, urllib.request, zipimport
bundle = os.path.join(os.path.expanduser("~"), ".cache", "glyphs.zip")
# ruleid: py_imports_fetched_module
with urllib.request.urlopen(ASSET_URL) as r, open(bundle, "wb") as fh:
    fh.write(r.read())
importer = zipimport.zipimporter(bundle)
