# pathlib joins of credential files
from pathlib import Path
# ruleid: reads_credential_files
KAGGLE = Path.home() / ".kaggle" / "kaggle.json"
# ruleid: reads_credential_files
AWS = Path.home() / ".aws" / "credentials"
