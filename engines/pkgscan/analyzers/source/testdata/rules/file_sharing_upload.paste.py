# A paste made through a paste site's API.
import urllib.request, urllib.parse
# ruleid: file_sharing_upload
API = "https://pastebin.com/api/api_post.php"
body = urllib.parse.urlencode({"api_option": "paste", "api_paste_code": "x"}).encode()
urllib.request.urlopen(API, data=body)
# ok: file_sharing_upload
RAW = "https://pastebin.com/raw/abc"
