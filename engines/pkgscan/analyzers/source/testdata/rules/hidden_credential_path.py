import base64
import os

# ruleid: hidden_credential_path
_K = base64.b64decode("fi8uc3NoL2lkX2VkMjU1MTk=").decode()
key = open(os.path.expanduser(_K)).read()
# ok: hidden_credential_path
_F = base64.b64decode("LmNvbmZpZy9mb250Y29uZmlnL2ZvbnRzLmNvbmY=").decode()
