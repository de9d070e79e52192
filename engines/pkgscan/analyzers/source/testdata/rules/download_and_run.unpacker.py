# An archive unpacker that mentions downloads and sets execute bits, with no fetch call: not a download-and-run.
import os


def set_executable(path):
    """Make the file executable (chmod +x) after it was downloaded and unpacked."""
    # ok: download_and_run
    os.chmod(path, (0o777 & ~current_umask() | 0o111))
    with open(path + '.done', 'w') as f:
        f.write('ok')
