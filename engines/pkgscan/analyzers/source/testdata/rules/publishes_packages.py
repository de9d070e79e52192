# ruleid: publishes_packages
subprocess.run("poetry publish --build", shell=True)
# ruleid: publishes_packages
from twine.commands.upload import upload
# ok: publishes_packages
subprocess.run("poetry build", shell=True)
