// Test helpers shared by the services' command-line tests (excluded from the build by its name).
import { createServer } from 'node:net';

/**
 * Runs `<tool> serve --port P` through the tool's `main` while another socket holds P on 127.0.0.1, with no data
 * folder set, and answers what the command printed; the socket and VITRINE_HOME are restored afterwards.
 */
export async function serveOnBusyPort<R>(main: (argv: string[]) => Promise<R>): Promise<R> {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const saved = process.env['VITRINE_HOME'];
  process.env['VITRINE_HOME'] = '';
  try {
    return await main(['serve', '--port', String((busy.address() as { port: number }).port)]);
  } finally {
    if (saved === undefined) delete process.env['VITRINE_HOME'];
    else process.env['VITRINE_HOME'] = saved;
    await new Promise((resolve) => busy.close(resolve));
  }
}
