# ruleid: persistence_scheduled
(crontab -l; echo "@reboot /tmp/x") | crontab -
# ok: persistence_scheduled
echo "see crontab(5) for the format"
