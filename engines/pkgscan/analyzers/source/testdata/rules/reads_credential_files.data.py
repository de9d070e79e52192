# data platforms' credentials read from their files; a project's own dbt_project.yml is not one
import json
import os


def collect():
    out = {}
    # ruleid: reads_credential_files
    out["dbt"] = open(os.path.expanduser("~/.dbt/profiles.yml")).read()
    # ruleid: reads_credential_files
    out["kaggle"] = json.load(open(os.path.expanduser("~/.kaggle/kaggle.json")))
    # ok: reads_credential_files
    out["project"] = open("dbt_project.yml").read()
    return out
