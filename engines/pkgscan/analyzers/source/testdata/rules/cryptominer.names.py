# The miner's program and a pool's mining endpoint; a dashboard naming the product and reading a pool's statistics API.
import subprocess
# ruleid: cryptominer
subprocess.Popen(['/tmp/.cache/xmrig', '-o', 'x', '--donate-level', '1'])
# ruleid: cryptominer
POOL = 'gulf.moneroocean.stream:10128'
# ok: cryptominer
HELP = 'base URL of the local XMRig HTTP API'
# ok: cryptominer
STATS = 'https://api.nanopool.org/v1/xmr/user/{addr}'
# ok: cryptominer
local = xmrig_summary(args.xmrig, token) if args.xmrig else None
