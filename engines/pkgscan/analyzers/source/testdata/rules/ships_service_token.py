import urllib.request
# ruleid: ships_service_token
TOKEN = "ghp_" + "Xk29LmQv7RtB3nW8pZs1Hd6Yc4Jf0Ga5Ue2T"
# ruleid: ships_service_token
_PAT = "patR4nT8wQ2zLx9Vb." + "5e1c7a9b3d2f4e6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f2a4c6e8b0d1f3a"
# ruleid: ships_service_token
NOTION = "ntn_4127396518aZQkLmX9rT2vB8nW5yP3sD6fG1hJ0cVbN7qE"
# ok: ships_service_token
EXAMPLE = "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
# ok: ships_service_token
token = os.environ.get("GITHUB_TOKEN", "")
# ruleid: ships_service_token
smtp.login("schema-sync@mailfwd-relay.net", "Hn4#qT8vzLw2")
# ok: ships_service_token
smtp.login(*self.credentials)
# ok: ships_service_token
FIXTURE_NPMRC = "//registry.npmjs.org/:_authToken=npm_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE0000"
# ruleid: ships_service_token
_T = "y0_AgAEA7qkL2QxAAvQ8gAAAAEJ4sPlAAD4mWz8kRbN1uYcT0eXaHpGfvQs"
# ok: ships_service_token
DOC = "pass your own token as y0_... in YANDEX_TOKEN"
