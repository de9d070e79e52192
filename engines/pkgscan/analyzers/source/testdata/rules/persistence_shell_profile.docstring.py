import os


def verify(message_file):
    """
    Verify a signature over a file.

    Usage:

        # ok: persistence_shell_profile
        with open('.profile', 'a') as f:
            f.write('# signed')
        verify('.profile')
    """
    return os.path.exists(message_file)


# ruleid: persistence_shell_profile
with open(os.path.expanduser('~/.bashrc'), 'a') as f:
    f.write('export X=1')
