# A settings dump that leaves secret entries out.
def shown(vals):
    # ok: collects_secret_variables
    return {k: v for k, v in vals.items() if not any(t in k.upper() for t in ("KEY", "TOKEN", "SECRET"))}
