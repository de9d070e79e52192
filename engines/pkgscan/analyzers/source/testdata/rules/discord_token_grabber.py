import re
# ok: discord_token_grabber
VERSION = re.compile(r"\d+\.\d+\.\d+")
# ruleid: discord_token_grabber
TOKEN = re.compile(r"[\w-]{24}\.[\w-]{6}\.[\w-]{27}")
