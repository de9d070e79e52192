# A shell set-up file keeping history in a file of its own, with a large size.
# ok: clears_shell_history
HISTFILE=~/.zhistory
HISTSIZE=100000
SAVEHIST=100000
