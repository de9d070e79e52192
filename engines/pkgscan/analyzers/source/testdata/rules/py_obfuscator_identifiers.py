# a module whose names are all strings of I and l (Hyperion's renaming)
# ruleid: py_obfuscator_identifiers
_lIlIIIlIIIIllIII, _lIIIIlIIIIllIIlI, _IIlIIIIlllllllII = exec, str, chr
_IIlllllIIlIlIllI = lambda _IIlIIIIlllllllII: _lIIIIlIIIIllIIlI(_lIlIIIlIIIIllIII, _IIlIIIIlllllllII)
_IlllllIIllIIllll = lambda _IIlllllIIlIlIllI: _IIlIIIIlllllllII(_lIIIIlIIIIllIIlI, _IIlllllIIlIlIllI)
_lIllIIlIIlIIlllI = lambda _IlllllIIllIIllll: _IIlllllIIlIlIllI(_IIlIIIIlllllllII, _IlllllIIllIIllll)
_IlllIlllllIIIIII = lambda _lIllIIlIIlIIlllI: _IlllllIIllIIllll(_IIlllllIIlIlIllI, _lIllIIlIIlIIlllI)
_IIlIllIIlllIIlll = lambda _IlllIlllllIIIIII: _lIllIIlIIlIIlllI(_IlllllIIllIIllll, _IlllIlllllIIIIII)
_llIllIIIIlIIlIII = lambda _IIlIllIIlllIIlll: _IlllIlllllIIIIII(_lIllIIlIIlIIlllI, _IIlIllIIlllIIlll)
_IIlIIIlIllllIIll = lambda _llIllIIIIlIIlIII: _IIlIllIIlllIIlll(_IlllIlllllIIIIII, _llIllIIIIlIIlIII)
_lllIIIlllIIIlIIl = lambda _IIlIIIlIllllIIll: _llIllIIIIlIIlIII(_IIlIllIIlllIIlll, _IIlIIIlIllllIIll)
_IllIlIlIIIlIIllI = lambda _lllIIIlllIIIlIIl: _IIlIIIlIllllIIll(_llIllIIIIlIIlIII, _lllIIIlllIIIlIIl)
# ok: py_obfuscator_identifiers
ILLEGAL_CHARS = set('/\\:')
