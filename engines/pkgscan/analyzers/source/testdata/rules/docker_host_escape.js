const http = require('http');
// ruleid: docker_host_escape
const body = JSON.stringify({ Image: 'alpine', Cmd: ['sh'], HostConfig: { Binds: ['/:/h'] } });
// ruleid: docker_host_escape
const opts = { HostConfig: { Privileged: true } };
// ok: docker_host_escape
const safe = { HostConfig: { Binds: ['./data:/data'] } };
http.request({ socketPath: '/var/run/docker.sock', path: '/containers/create', method: 'POST' }).end(body);
