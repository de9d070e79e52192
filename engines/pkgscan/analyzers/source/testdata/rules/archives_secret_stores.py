# Wallet folders walked and written into a zip in memory.
import io, os, zipfile
ROOTS = [os.path.join(os.environ["APPDATA"], "Exodus", "exodus.wallet"), os.path.join(os.environ["APPDATA"], "Ethereum", "keystore")]
buf = io.BytesIO()
# ruleid: archives_secret_stores
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    for root in ROOTS:
        for dp, _, fns in os.walk(root):
            for fn in fns:
                z.write(os.path.join(dp, fn))
# ok: archives_secret_stores
with zipfile.ZipFile("report.zip") as r:
    r.extractall("out")
