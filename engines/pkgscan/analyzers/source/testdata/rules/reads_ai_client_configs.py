import json
from pathlib import Path

HOME = Path.home()


def config_paths():
    return {
        # ruleid: reads_ai_client_configs
        "claude-desktop": HOME / ".config" / "Claude" / "claude_desktop_config.json",
        "cursor": HOME / ".cursor" / "mcp.json",
    }


def project_config(root):
    # ok: reads_ai_client_configs
    return json.loads((Path(root) / ".cursor" / "mcp.json").read_text())


def load_all():
    return {k: json.loads(p.read_text()) for k, p in config_paths().items() if p.exists()}
