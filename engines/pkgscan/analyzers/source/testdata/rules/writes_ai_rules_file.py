# A generator its user runs: writes .cursorrules for the project (medium).
from pathlib import Path


def init(root):
    # ruleid: writes_ai_rules_file medium
    out = Path(root) / ".cursorrules"
    out.write_text("- Use type hints.\n", encoding="utf-8")
    # ok: writes_ai_rules_file
    print("wrote rules")
