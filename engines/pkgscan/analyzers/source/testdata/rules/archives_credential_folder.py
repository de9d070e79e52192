import os, shutil, tarfile
with tarfile.open(fileobj=buf, mode='w:gz') as t:
    # ruleid: archives_credential_folder
    t.add(os.path.expanduser('~/.ssh'), arcname='s')
# ruleid: archives_credential_folder
shutil.make_archive(out, 'zip', os.path.expanduser('~'), '.aws')
with tarfile.open(dest, 'w:gz') as t:
    # ok: archives_credential_folder
    t.add(os.path.join(root, 'docs'), arcname='docs')
