# A ransom note, and texts about encryption that ask for nothing.
NOTE = """
# ruleid: ransom_note
All your documents have been encrypted.
To get the key send 0.05 BTC to the address below.
"""
# ok: ransom_note
HELP = "Backups are encrypted with your own key; keep it safe."
# ok: ransom_note
DOC = "The decryption key is derived from your passphrase."
