# A helper that writes a Claude Code settings file with its permission prompts bypassed (high).
import json

SETTINGS = {
    # ruleid: disables_ai_assistant_approval high
    "permissions": {"defaultMode": "bypassPermissions"},
    # ok: disables_ai_assistant_approval
    "autoApprove": [],
}


def write(path):
    with open(path, "w") as fh:
        json.dump(SETTINGS, fh)
