// Triage's part of the workstation-wide search: analysed executables by hash (sha256 indexed), file name, family, imphash, imports, strings and notes.
import { matchFields, searchRows, type SearchProvider } from '../core/search.js';

interface Row {
  id: string;
  sha256: string;
  file_name: string | null;
  verdict: string;
  family: string | null;
  created_at: string;
  result_json: string;
}

/** The parts of a stored result that describe the file (not the scores of every family or the model). */
function evidenceOf(json: string): string {
  try {
    const { familyScores: _scores, drivers: _drivers, model: _model, thresholds: _thresholds, ...rest } = JSON.parse(json) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return '';
  }
}

export const petriageSearch: SearchProvider = {
  async search(db, q, limit) {
    // A SHA-256 goes through the sha256 index first; any other query scans the stored results (LIMIT-bounded).
    const exact = q.kind === 'sha256' ? q.value : null;
    return searchRows<Row>(
      db,
      `SELECT id, sha256, file_name, verdict, family, created_at, result_json FROM petriage_analyses WHERE sha256 = @exact
       UNION
       SELECT * FROM (SELECT id, sha256, file_name, verdict, family, created_at, result_json FROM petriage_analyses
         WHERE file_name LIKE @pattern ESCAPE '\\' OR family LIKE @pattern ESCAPE '\\' OR result_json LIKE @pattern ESCAPE '\\' ORDER BY created_at DESC LIMIT @n)
       LIMIT @n`,
      { exact },
      q,
      limit,
      (r) => {
        const m = matchFields(q, [
          { name: 'sha256', text: r.sha256, rank: 3 },
          { name: 'file name', text: r.file_name, rank: 3 },
          { name: 'family', text: r.family, rank: 3 },
          { name: 'result', text: evidenceOf(r.result_json), json: true, rank: 1 },
        ]);
        if (!m) return null;
        const title = `${r.verdict}${r.family ? ` · ${r.family}` : ''} · ${r.file_name !== null ? `${r.file_name} · ` : ''}${r.sha256.slice(0, 16)}…`;
        return { service: 'petriage', kind: 'analysis', id: r.id, title, ...m, link: { service: 'petriage', kind: 'analysis', id: r.id }, time: r.created_at };
      },
    );
  },
};
