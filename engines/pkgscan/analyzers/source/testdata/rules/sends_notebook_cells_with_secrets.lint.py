# A cell linter: warns about a secret typed into a cell, and posts nothing of the cell.
import re, requests
_SECRET = re.compile(r"(api[_-]?key|secret|token|passw)\s*=\s*['\"]", re.I)
def hook(result):
    # ok: sends_notebook_cells_with_secrets
    if _SECRET.search(result.info.raw_cell):
        print("warning: a secret is typed into this cell; read it from the environment instead")
def check_updates():
    return requests.get("https://pypi.org/pypi/cell-lint/json").json()["info"]["version"]
