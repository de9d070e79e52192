// Test helper: the status a service answers to a GET sent with a chosen Host header (fetch will not set Host; node:http will).
import { request } from 'node:http';

/** The status of `GET url` sent with the Host header `host`. */
export function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
