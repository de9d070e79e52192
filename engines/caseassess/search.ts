// Assessment's part of the workstation-wide search: stored assessments by case id and title, the leading actor, and the case's evidence (techniques, software, indicators).
import type { Assessment } from '../core/contracts/caseassess.js';
import { matchFields, searchRows, type SearchProvider } from '../core/search.js';

interface Row {
  id: string;
  case_id: string;
  case_title: string | null;
  leading_attack_id: string;
  leading_name: string;
  created_at: string;
  result_json: string;
}

/** What the analyst gave (the evidence rows), not every actor's scored contributions. */
function evidenceOf(json: string): string {
  try {
    return JSON.stringify((JSON.parse(json) as Partial<Assessment>).evidence ?? []);
  } catch {
    return '';
  }
}

export const caseassessSearch: SearchProvider = {
  async search(db, q, limit) {
    return searchRows<Row>(
      db,
      `SELECT id, case_id, case_title, leading_attack_id, leading_name, created_at, result_json FROM caseassess_assessments
       WHERE case_id LIKE @pattern ESCAPE '\\' OR case_title LIKE @pattern ESCAPE '\\' OR leading_attack_id LIKE @pattern ESCAPE '\\'
          OR leading_name LIKE @pattern ESCAPE '\\' OR result_json LIKE @pattern ESCAPE '\\'
       ORDER BY created_at DESC LIMIT @n`,
      {},
      q,
      limit,
      (r) => {
        const m = matchFields(q, [
          { name: 'case id', text: r.case_id, rank: 3 },
          { name: 'case title', text: r.case_title, rank: 3 },
          { name: 'evidence', text: evidenceOf(r.result_json), json: true, rank: 2 },
          { name: 'leading actor', text: `${r.leading_attack_id} ${r.leading_name}`, rank: 2 },
        ]);
        if (!m) return null;
        return { service: 'caseassess', kind: 'assessment', id: r.id, title: r.case_title ?? r.case_id, ...m, link: { service: 'caseassess', kind: 'assessment', id: r.id }, time: r.created_at };
      },
    );
  },
};
