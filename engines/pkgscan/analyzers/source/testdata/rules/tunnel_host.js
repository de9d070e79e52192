// ruleid: tunnel_host
const url = 'https://abcd-1-2-3-4.ngrok-free.app/collect';
// ok: tunnel_host
const docs = 'https://ngrok.com/docs';
