import os
# ruleid: reads_credential_files
PGPASS = os.path.expanduser("~/.pgpass")
# ruleid: reads_credential_files
ADC = os.path.expanduser("~/.config/gcloud/application_default_credentials.json")
# ruleid: reads_credential_files
VAULT = os.path.expanduser("~/.vault-token")
# ok: reads_credential_files
SERVICE = os.path.expanduser("~/.pg_service.conf")
