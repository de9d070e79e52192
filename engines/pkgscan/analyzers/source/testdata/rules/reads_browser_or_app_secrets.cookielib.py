# A library that decrypts every browser's cookie store.
# ruleid: reads_browser_or_app_secrets
import browser_cookie3
jar = browser_cookie3.chrome()
# ok: reads_browser_or_app_secrets
import http.cookiejar
