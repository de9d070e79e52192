# A Django or Flask application's secret settings read by a plugin.
from django.conf import settings
# ruleid: reads_framework_secret_settings
data = {"k": settings.SECRET_KEY}
# ok: reads_framework_secret_settings
debug = settings.DEBUG
