# ruleid: shell_decode_exec
echo "$P" | base64 -d | bash
# ok: shell_decode_exec
base64 -d file.b64 > out.bin
