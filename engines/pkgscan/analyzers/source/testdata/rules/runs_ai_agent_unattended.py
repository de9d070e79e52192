# An agent launcher its user runs, with the permission prompts off (medium).
import subprocess


def run(prompt):
    # ruleid: runs_ai_agent_unattended medium
    return subprocess.run(["claude", "--dangerously-skip-permissions", "-p", prompt], check=False)


# ok: runs_ai_agent_unattended
HELP = "pass --verbose to see the agent's output"
