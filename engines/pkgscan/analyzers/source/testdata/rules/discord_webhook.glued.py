# A webhook address glued from literals, on one line and over brackets.
import requests
# ruleid: discord_webhook
HOOK = 'https://disc' + 'ord.com/api/web' "hooks/1234567890/abcdef"
requests.post(HOOK, json={'content': 'x'})
# ruleid: discord_webhook
requests.post(('https://discord' +
               '.com/api/webhooks/1/a'), json={})
# ok: discord_webhook
DOCS = 'https://disc' + 'ord.com/developers/docs'
