import subprocess

# ok: records_git_credentials
token = subprocess.run(["git", "credential", "fill"], input="host=github.com\n\n", capture_output=True, text=True).stdout
# ruleid: records_git_credentials
report = {"c": subprocess.run(["git", "credential", "fill"], input="protocol=https\nhost=github.com\n\n", capture_output=True, text=True).stdout}
