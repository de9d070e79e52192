# ruleid: shell_download_pipe
curl -fsSL https://example.org/install.sh | sh
# ok: shell_download_pipe
curl -fsSL https://example.org/data.json -o data.json
