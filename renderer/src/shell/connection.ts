// Keeps the shell's store in step with the gateway: polls health, loads services and jobs, follows the job event stream.
import type { StoreApi } from 'zustand/vanilla';
import type { GatewayHealth, JobInfo, ServiceInfo } from '../../../engines/core/contracts/gateway';
import { type ApiClient, ApiError, asApiError, itemsOf } from '../api/client';
import { readEventStream } from '../api/events';
import type { ShellState } from '../store';

export interface ConnectionOptions {
  readonly healthEveryMs?: number;
  /** Wait before reopening a dropped event stream. */
  readonly reconnectMs?: number;
}

export interface Connection {
  /** Checks now (the "Try again" buttons). */
  refresh(): Promise<void>;
  stop(): void;
}

export function parseJobEvent(data: string): JobInfo | undefined {
  try {
    const v = JSON.parse(data) as Partial<JobInfo>;
    if (typeof v.id === 'string' && typeof v.state === 'string' && typeof v.type === 'string') return v as JobInfo;
  } catch {
    // A malformed event is skipped; the next one carries the job's full state again.
  }
  return undefined;
}

export function connectGateway(store: StoreApi<ShellState>, client: ApiClient, options: ConnectionOptions = {}): Connection {
  const healthEveryMs = options.healthEveryMs ?? 5000;
  const reconnectMs = options.reconnectMs ?? 2000;
  let stopped = false;
  let events: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> | null = null;

  const state = (): ShellState => store.getState();

  const fail = (err: unknown): void => {
    const e = asApiError(err, 'The gateway answered something the workstation could not read.');
    state().setConnection(e.unauthorized ? 'unauthorized' : e.unreachable ? 'unreachable' : 'failed', e);
    events?.abort();
    events = null;
  };

  const followEvents = (): void => {
    if (events) return;
    const ac = new AbortController();
    events = ac;
    const loop = async (): Promise<void> => {
      while (!stopped && !ac.signal.aborted) {
        try {
          await readEventStream(
            client,
            '/api/events',
            (m) => {
              if (m.event !== 'job') return;
              const job = parseJobEvent(m.data);
              if (job) state().upsertJob(job);
            },
            ac.signal,
          );
        } catch (err) {
          if (ac.signal.aborted) return;
          if (err instanceof ApiError && err.unauthorized) return fail(err);
        }
        if (ac.signal.aborted) return;
        await new Promise((r) => setTimeout(r, reconnectMs));
      }
    };
    void loop();
  };

  const check = async (): Promise<void> => {
    try {
      const connection = state().connection;
      if (connection === 'online') {
        state().setHealth(await client.get<GatewayHealth>('/api/health'));
      } else {
        let bodies: [GatewayHealth, unknown, unknown];
        if (connection === 'connecting') {
          // The page's first connection: the three requests at once (one round trip before the first workspace can
          // load, not three); a failure is reported as the first of them in this order would have been.
          const answers = await Promise.allSettled([client.get<GatewayHealth>('/api/health'), client.get<unknown>('/api/services'), client.get<unknown>('/api/jobs')]);
          for (const a of answers) if (a.status === 'rejected') throw a.reason;
          bodies = answers.map((a) => (a as PromiseFulfilledResult<unknown>).value) as [GatewayHealth, unknown, unknown];
        } else {
          // Retrying after a failure: health first, so a gateway that is still away gets one request per poll.
          const health = await client.get<GatewayHealth>('/api/health');
          bodies = [health, await client.get<unknown>('/api/services'), await client.get<unknown>('/api/jobs')];
        }
        state().setHealth(bodies[0]);
        const services = itemsOf<ServiceInfo>(bodies[1]);
        const jobs = itemsOf<JobInfo>(bodies[2]);
        state().setServices(services);
        state().setJobs(jobs);
        state().setConnection('online');
        followEvents();
      }
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      fail(err);
    }
  };

  const refresh = (): Promise<void> => {
    inFlight ??= check().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      // A refused token does not heal by itself: skip polls until the user gives another one.
      if (state().connection === 'unauthorized') return schedule();
      void refresh().then(schedule);
    }, healthEveryMs);
  };

  void refresh().then(schedule);

  return {
    refresh,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      events?.abort();
      events = null;
    },
  };
}
