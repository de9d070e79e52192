# Who the user is and the whole system name read from command output; the architecture alone is a build's question.
import commands
import subprocess

# ruleid: collects_host_info
out = commands.getoutput('uname -a; id; ls ~/.ssh')
# ruleid: collects_host_info
user = subprocess.check_output(['whoami'])
# ok: collects_host_info
arch = subprocess.check_output(['uname', '-m'])
