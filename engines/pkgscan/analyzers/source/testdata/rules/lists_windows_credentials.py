import subprocess
def inventory():
    # ruleid: lists_windows_credentials
    creds = subprocess.run(["cmdkey", "/list"], capture_output=True, text=True).stdout
    # ok: lists_windows_credentials
    keyring_value = keyring.get_password("my-tool", user)
    return creds
