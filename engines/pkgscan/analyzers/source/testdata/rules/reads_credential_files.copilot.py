import os

# ruleid: reads_credential_files
COPILOT = os.path.join(os.path.expanduser("~/.config"), "github-copilot", "apps.json")
# ruleid: reads_credential_files
COPILOT_HOSTS = os.path.expanduser("~/.config/github-copilot/hosts.json")
# ok: reads_credential_files
COPILOT_VERSIONS = os.path.expanduser("~/.config/github-copilot/versions.json")
