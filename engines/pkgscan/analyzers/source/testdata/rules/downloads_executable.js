// ruleid: downloads_executable
const url = 'https://example.org/files/setup.exe';
// ok: downloads_executable
const archive = 'https://example.org/files/setup.tar.gz';
// ok: downloads_executable
const endpoint = 'https://%s/rpc/rpcproxy.dll';
