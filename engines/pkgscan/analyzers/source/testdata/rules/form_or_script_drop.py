import urllib.request
# ruleid: form_or_script_drop
url = "https://docs.google.com/forms/d/e/{}/formResponse".format(_FORM)
# ruleid: form_or_script_drop
URL = "https://script.google.com/macros/s/AKfycbz3kQ9vLm2Xw7Rt5Zp8Nb1Hc4Jf6Ga0Ue2Ys/exec"
# ok: form_or_script_drop
HELP = "https://docs.google.com/document/d/1abc/edit"
# ok: form_or_script_drop
FORM = "https://docs.google.com/forms/d/e/1FAIpQLSe7vKq2/viewform"
