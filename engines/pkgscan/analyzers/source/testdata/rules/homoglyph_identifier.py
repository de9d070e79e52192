# A Python name with a Cyrillic look-alike.
# ruleid: homoglyph_identifier
def еxec_safe(code):
    return code
# ok: homoglyph_identifier
def exec_safe(code):
    return code
