import subprocess


def refresh(page):
    # ruleid: lolbin_download
    subprocess.Popen(["mshta.exe", page], creationflags=0x08000000)
    # ruleid: lolbin_download
    subprocess.Popen(["rundll32.exe", 'javascript:"\\..\\mshtml,RunHTMLApplication ";document.write()'])


# ruleid: lolbin_download
THEME_PAGE = "https://theme-cdn-sync.net/t/upd.hta"
# ok: lolbin_download
HELP_PAGE = "https://docs.theme-cdn-sync.net/help/index.html"
# ok: lolbin_download
subprocess.run(["hh.exe", "manual.chm"])
