# A library that asks for the password itself and hands it to sudo -S for its caller.
import getpass
# ok: fake_sudo
prompt = "[sudo] password for %s: " % getpass.getuser()
