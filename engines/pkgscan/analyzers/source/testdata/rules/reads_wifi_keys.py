import subprocess
# ruleid: reads_wifi_keys
out = subprocess.check_output('netsh wlan show profile name=* key=clear', shell=True)
# ruleid: reads_wifi_keys
conns = os.listdir('/etc/NetworkManager/system-connections')
# ok: reads_wifi_keys
iface = subprocess.check_output(['netsh', 'wlan', 'show', 'interfaces'])
# ruleid: reads_wifi_keys
detail = _run(["netsh", "wlan", "show", "profile", "name=" + n, "key=clear"])
# ok: reads_wifi_keys
ifaces = _run(["netsh", "wlan", "show", "interfaces"])
