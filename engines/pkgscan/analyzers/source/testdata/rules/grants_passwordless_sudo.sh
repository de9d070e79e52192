# fixture: path=.devcontainer/setup-user.sh
# A dev-container script that gives its build user passwordless sudo (medium: a user runs it for an image).
# ruleid: grants_passwordless_sudo medium
echo "$USERNAME ALL=(root) NOPASSWD:ALL" > "/etc/sudoers.d/$USERNAME"
# ok: grants_passwordless_sudo
chmod 0440 "/etc/sudoers.d/$USERNAME"
