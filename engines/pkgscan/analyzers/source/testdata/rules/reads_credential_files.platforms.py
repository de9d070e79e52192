# Deployment and backend platforms' command-line tools' token files.
import os

h = os.path.expanduser("~")
# ruleid: reads_credential_files
vercel = os.path.join(h, ".local", "share", "com.vercel.cli", "auth.json")
# ruleid: reads_credential_files
fly = os.path.join(h, ".fly", "config.yml")
# ruleid: reads_credential_files
wrangler = os.path.join(h, ".wrangler", "config", "default.toml")
# ok: reads_credential_files
project = os.path.join(os.getcwd(), "fly.toml")
