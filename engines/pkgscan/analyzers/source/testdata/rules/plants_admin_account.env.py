# A first-admin migration: the operator gives the password.
import os
def forwards(apps, schema_editor):
    User = apps.get_model("auth", "User")
    # ok: plants_admin_account
    User.objects.create_superuser(os.environ["ADMIN_EMAIL"], password=os.environ["ADMIN_PASSWORD"])
