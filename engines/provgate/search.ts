// Lineage's part of the workstation-wide search: gate runs by scenario, envelope hash, and anything in their graph and decision (purls, CVEs, digests, commits, builders).
import { matchFields, searchRows, type SearchProvider } from '../core/search.js';

interface Row {
  id: string;
  created_at: string;
  source: string;
  scenario: string | null;
  verdict: string;
  envelopes_sha256: string | null;
  result_json: string;
}

export const provgateSearch: SearchProvider = {
  async search(db, q, limit) {
    return searchRows<Row>(
      db,
      `SELECT id, created_at, source, scenario, verdict, envelopes_sha256, result_json FROM provgate_runs
       WHERE scenario LIKE @pattern ESCAPE '\\' OR envelopes_sha256 LIKE @pattern ESCAPE '\\' OR result_json LIKE @pattern ESCAPE '\\'
       ORDER BY created_at DESC LIMIT @n`,
      {},
      q,
      limit,
      (r) => {
        const m = matchFields(q, [
          { name: 'envelopes sha256', text: r.envelopes_sha256, rank: 3 },
          { name: 'scenario', text: r.scenario, rank: 3 },
          { name: 'run', text: r.result_json, json: true, rank: 1 },
        ]);
        if (!m) return null;
        const title = `${r.verdict} · ${r.scenario !== null ? `demo ${r.scenario}` : `${r.source} run`}`;
        return { service: 'provgate', kind: 'run', id: r.id, title, ...m, link: { service: 'provgate', kind: 'run', id: r.id }, time: r.created_at };
      },
    );
  },
};
