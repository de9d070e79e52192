'use strict';
// a hot-reload client: the message names a module to fetch again; nothing it receives is evaluated
const socket = new WebSocket(`ws://${location.host}/__hmr`);
// ok: js_socket_remote_code
socket.onmessage = (event) => {
  const msg = JSON.parse(event.data);
  if (msg.type === 'update') import(`${msg.path}?t=${Date.now()}`);
};
