/*
  Vitrine pkgscan: general YARA rules for package files (npm and PyPI), run by the optional `yara` analyzer.
  General idioms of droppers, exfiltration, reverse shells and embedded executables, never a sample's own strings.
  Each rule's meta says the finding it gives: code, severity (info|low|medium|high|critical), category (a pkgscan
  FindingCategory), technique (ATT&CK id or "-") and description. Keep meta values free of quotes and commas.
  Documentation: docs/pkgscan-provenance.md "yara".
*/

rule js_decode_then_eval
{
  meta:
    code = "yara_js_decode_eval"
    severity = "high"
    category = "code_execution"
    technique = "T1027"
    description = "JavaScript decodes base64 or hex and evaluates the result"
  strings:
    $eval1 = /\beval\s*\(\s*(atob|Buffer\.from|unescape|decodeURIComponent)\s*\(/
    $eval2 = /new\s+Function\s*\(\s*(atob|Buffer\.from|unescape)\s*\(/
    $eval3 = /\beval\s*\(\s*[A-Za-z_$][\w$]*\s*\(\s*['"][A-Za-z0-9+\/=]{80,}['"]/
  condition:
    filesize < 20MB and any of them
}

rule js_obfuscator_with_process_or_network
{
  meta:
    code = "yara_js_obfuscated_dropper"
    severity = "high"
    category = "obfuscation"
    technique = "T1027"
    description = "javascript-obfuscator style code (many _0x identifiers) that also reaches for processes or the network"
  strings:
    $hexid = /_0x[a-f0-9]{4,6}\b/
    $cp1 = "child_process" ascii
    $cp2 = "'\\x63\\x68\\x69\\x6c\\x64" ascii
    $net1 = "https.get" ascii
    $net2 = "http.request" ascii
    $net3 = "require('https')" ascii
    $net4 = "require(\"https\")" ascii
    $net5 = "dns.resolve" ascii
  condition:
    filesize < 20MB and #hexid > 200 and any of ($cp*, $net*)
}

rule py_decode_then_exec
{
  meta:
    code = "yara_py_decode_exec"
    severity = "high"
    category = "code_execution"
    technique = "T1027"
    description = "Python executes data it decodes (base64 or zlib or marshal or codecs)"
  strings:
    $e1 = /\bexec\s*\(\s*(base64\.b(64|32|16|85)decode|zlib\.decompress|marshal\.loads|codecs\.decode|bytes\.fromhex|__import__\s*\(\s*['"](base64|zlib|marshal|codecs)['"]\s*\))/
    $e2 = /\beval\s*\(\s*(compile\s*\(\s*)?(base64\.b(64|32|16|85)decode|zlib\.decompress|marshal\.loads|__import__\s*\(\s*['"](base64|zlib|marshal)['"]\s*\))/
    $e3 = /\bexec\s*\(\s*[A-Za-z_][\w.]*\s*\(\s*[A-Za-z_][\w.]*\s*\(\s*b?['"][A-Za-z0-9+\/=]{60,}/
    $e4 = /exec\s*\(\s*marshal\.loads\s*\(/
  condition:
    filesize < 20MB and any of them
}

rule py_pyarmor_or_packed
{
  meta:
    code = "yara_py_packed"
    severity = "medium"
    category = "obfuscation"
    technique = "T1027.002"
    description = "Python protected by pyarmor or a marshal/zlib stub that hides its code"
  strings:
    $a1 = "__pyarmor__(" ascii
    $a2 = "pyarmor_runtime" ascii
    $a3 = /from\s+pytransform\s+import\s+pyarmor_runtime/
    $m1 = /marshal\.loads\s*\(\s*zlib\.decompress\s*\(\s*base64\.b64decode/
  condition:
    filesize < 20MB and any of them
}

rule webhook_exfiltration_endpoint
{
  meta:
    code = "yara_webhook_endpoint"
    severity = "medium"
    category = "exfiltration"
    technique = "T1567.004"
    description = "A chat webhook or out-of-band collection endpoint (Discord or Telegram or Slack webhook or OAST or request bin)"
  strings:
    $d1 = /discord(app)?\.com\/api\/webhooks\/[0-9]{6,}/ nocase
    $t1 = /api\.telegram\.org\/bot[0-9]{6,}:[A-Za-z0-9_-]{20,}/
    $s1 = /hooks\.slack\.com\/services\/T[A-Z0-9]{6,}/
    $o1 = /[a-z0-9]{10,}\.(oast\.(fun|pro|live|site|online|me)|interact\.sh|interactsh\.com|burpcollaborator\.net|oastify\.com|dnslog\.cn|ceye\.io)/ nocase
    $o2 = /https?:\/\/[a-z0-9.-]*(webhook\.site|pipedream\.net|requestbin\.(com|net)|beeceptor\.com|ngrok(-free)?\.(io|app))/ nocase
  condition:
    filesize < 20MB and any of them
}

rule credentials_read_and_sent
{
  meta:
    code = "yara_credential_exfiltration"
    severity = "critical"
    category = "exfiltration"
    technique = "T1552.001"
    description = "Reads credential stores (npmrc or ssh keys or cloud credentials or browser logins or Discord tokens) and contains a collection endpoint"
  strings:
    $c1 = ".npmrc" ascii
    $c2 = /\.ssh\/id_(rsa|ed25519|ecdsa)/
    $c3 = ".aws/credentials" ascii
    $c4 = "Login Data" ascii
    $c5 = /discord[^\n]{0,40}Local Storage[\/\\]+leveldb/ nocase
    $c6 = ".git-credentials" ascii
    $c7 = ".kube/config" ascii
    $c8 = "Local State" ascii
    $x1 = /discord(app)?\.com\/api\/webhooks\/[0-9]{6,}/ nocase
    $x2 = /api\.telegram\.org\/bot/
    $x3 = /[a-z0-9]{10,}\.(oast\.(fun|pro|live|site|online|me)|interact\.sh|interactsh\.com|burpcollaborator\.net|oastify\.com)/ nocase
    $x4 = /https?:\/\/[a-z0-9.-]*(webhook\.site|pipedream\.net|requestbin\.(com|net))/ nocase
  condition:
    filesize < 20MB and any of ($c*) and any of ($x*)
}

rule reverse_shell_idiom
{
  meta:
    code = "yara_reverse_shell"
    severity = "critical"
    category = "reverse_shell"
    technique = "T1059.004"
    description = "A reverse shell idiom (/dev/tcp redirection or nc -e or a socket duplicated onto stdio and a shell)"
  strings:
    $b1 = /(ba)?sh\s+-i\s*[>&]+\s*\/dev\/tcp\/[^\s\/]{3,}\/[0-9]{2,5}/
    $b2 = /\/dev\/tcp\/[0-9a-z.-]{3,}\/[0-9]{2,5}\s*0?>&\s*1/
    $b3 = /\b(nc|ncat|netcat)(\.traditional)?\s+(-[a-z]+\s+)*-e\s+\/bin\/(ba)?sh/
    $b4 = /mkfifo\s+\/tmp\/[^;|]{1,40}[;|&]+[^\n]{0,80}\/bin\/(ba)?sh\s+-i/
    $p1 = /os\.dup2\s*\(\s*[A-Za-z_][\w.]*\.fileno\s*\(\s*\)\s*,\s*0\s*\)/
    $p2 = /pty\.spawn\s*\(\s*['"]\/bin\/(ba)?sh['"]/
    $p3 = /subprocess\.call\s*\(\s*\[\s*['"]\/bin\/(ba)?sh['"]\s*,\s*['"]-i['"]/
    $n1 = /\.pipe\s*\(\s*[A-Za-z_$][\w$]*\.stdin\s*\)/
    $n2 = /spawn\s*\(\s*['"](\/bin\/)?(ba)?sh['"]/
    $n3 = /new\s+(net\.)?Socket\s*\(/
  condition:
    filesize < 20MB and (any of ($b*) or $p1 or ($p2 and $p3) or ($p2 and $p1) or ($n1 and $n2 and $n3))
}

rule embedded_executable_in_script
{
  meta:
    code = "yara_embedded_executable"
    severity = "high"
    category = "download_execute"
    technique = "T1027.009"
    description = "A Windows PE or Linux ELF executable carried inside a text file as base64 or hex"
  strings:
    $pe_b64a = "TVqQAAMAAAAEAAAA" ascii
    $pe_b64b = "TVpQAAIAAAAEAA8A" ascii
    $pe_b64c = "TVqAAAEAAAAEABAA" ascii
    $elf_b64a = "f0VMRgIBAQAAAAAAAAAAA" ascii
    $elf_b64b = "f0VMRgEBAQAAAAAAAAAAA" ascii
    $pe_hex = /4d5a(90|50|80)000[0-9a-f]000000/ nocase
    $pe_hex_esc = /\\x4d\\x5a\\x90\\x00/ nocase
    $elf_hex = /7f454c460[12]010[01]00/ nocase
    $elf_hex_esc = /\\x7fELF\\x0[12]/
  condition:
    filesize < 50MB and uint16(0) != 0x5a4d and uint32(0) != 0x464c457f and any of them
}

rule download_and_execute
{
  meta:
    code = "yara_download_execute"
    severity = "high"
    category = "download_execute"
    technique = "T1105"
    description = "Fetches a script or binary and runs it in the same command (pipe to a shell or chmod then run or PowerShell download cradle)"
  strings:
    $sh1 = /\b(curl|wget)\s[^\n|;]{1,200}\|\s*(sudo\s+)?(ba|z|da)?sh\b/
    $sh2 = /\b(curl|wget)\s[^\n;]{1,200}(-o|-O|>)\s*\/tmp\/[^\s;&]{1,60}\s*(;|&&)\s*chmod\s+\+?[0-7]*x?\s+\/tmp\/[^\s;&]{1,60}\s*(;|&&)\s*\/tmp\//
    $ps1 = /(iex|Invoke-Expression)\s*\(?\s*\(?\s*New-Object\s+(System\.)?Net\.WebClient\s*\)?\s*\.\s*DownloadString/ nocase
    $ps2 = /powershell(\.exe)?[^\n]{0,40}\s-(e|enc|encodedcommand)\s+[A-Za-z0-9+\/=]{40,}/ nocase
    $ps3 = /Invoke-WebRequest[^\n]{1,200}-OutFile[^\n]{1,200}(Start-Process|\&\s*\$)/ nocase
    $cu1 = /certutil(\.exe)?\s+-urlcache\s+-split\s+-f\s+http/ nocase
  condition:
    filesize < 20MB and any of them
}

rule cryptominer_strings
{
  meta:
    code = "yara_cryptominer"
    severity = "high"
    category = "cryptominer"
    technique = "T1496"
    description = "Cryptocurrency miner pool or miner options"
  strings:
    $p1 = /stratum\+(tcp|ssl|tls):\/\/[a-z0-9.-]{4,}:[0-9]{2,5}/ nocase
    $m1 = "--donate-level" ascii
    $m2 = /\bxmrig(\.exe)?\b/ nocase
    $m3 = "cryptonight" ascii nocase
    $m4 = /"algo"\s*:\s*"(rx\/0|cn\/r|randomx)"/
  condition:
    filesize < 50MB and ($p1 or 2 of ($m*))
}

rule host_recon_beacon
{
  meta:
    code = "yara_host_recon_beacon"
    severity = "high"
    category = "exfiltration"
    technique = "T1082"
    description = "Collects host identity (user or hostname or network interfaces or home folder) and sends it to a hard-coded host"
  strings:
    $j1 = "os.hostname()" ascii
    $j2 = "os.userInfo()" ascii
    $j3 = "os.networkInterfaces()" ascii
    $j4 = "os.homedir()" ascii
    $j5 = /os\.type\(\)|os\.platform\(\)/
    $js1 = /(https?)\.(request|get)\s*\(/
    $js2 = /dns\.(lookup|resolve[46]?)\s*\(/
    $p1 = "socket.gethostname()" ascii
    $p2 = "getpass.getuser()" ascii
    $p3 = "platform.node()" ascii
    $p4 = /os\.(getlogin|getcwd|uname)\(\)/
    $p5 = /os\.path\.expanduser\s*\(\s*['"]~['"]\s*\)/
    $ps1 = /requests\.(post|get)\s*\(/
    $ps2 = /urllib(2|\.request)?\.(urlopen|Request)\s*\(/
    $ps3 = /socket\.gethostbyname\s*\(/
    $host = /['"`](https?:\/\/)?([0-9]{1,3}\.){3}[0-9]{1,3}(:[0-9]{2,5})?|['"`]https?:\/\/[a-z0-9-]+\.[a-z0-9.-]+/ nocase
    $host2 = /\b(host|hostname)['"]?\s*[:=]\s*['"`][a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}['"`]/ nocase
  condition:
    filesize < 2MB and ($host or $host2) and ((3 of ($j*) and any of ($js*)) or (3 of ($p*) and any of ($ps*)))
}
