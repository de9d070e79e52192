// What every reader of JSON text at a boundary answers to text that is not JSON: its own code and message, never the text.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readScenarioFile } from '../engines/attrib/ach/scenario.js';
import { readJsonFile as readKbJsonFile } from '../engines/attrib/kb/kb.js';
import { main as caseassessMain } from '../engines/caseassess/cli.js';
import { knowledgeGraphFromBytes } from '../engines/caseassess/kg.js';
import { parseBundle } from '../engines/flowdet/bundle.js';
import { parseModel } from '../engines/petriage/model.js';
import { parseRiskModel } from '../engines/pkgscan/ml/model.js';
import { readLabelledFolder } from '../engines/pkgscan/ml/train.js';
import { parseJson as parseMirrorJson } from '../engines/pkgscan/sources/fetching.js';
import { main as provgateMain } from '../engines/provgate/cli.js';
import { loadReport } from '../engines/provgate/ingest.js';

const NOT_JSON = '{"Zq9-secret": ';
const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-json-errors-'));
const bad = path.join(dir, 'bad.json');
writeFileSync(bad, NOT_JSON);
const labelled = path.join(dir, 'labelled');
mkdirSync(labelled);
writeFileSync(path.join(labelled, 'GROUND_TRUTH.json'), NOT_JSON);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function errorOf(call: () => unknown): Promise<{ code: unknown; message: unknown; cause: unknown }> {
  try {
    await call();
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; cause?: unknown };
    expect(JSON.stringify({ message: e.message, cause: String(e.cause) })).not.toContain('Zq9');
    return { code: e.code, message: e.message, cause: e.cause };
  }
  throw new Error('no error');
}

describe('JSON text that is not JSON', () => {
  it('is refused by each library reader with its code and message, no cause', async () => {
    const cases: [() => unknown, string, string][] = [
      [() => parseRiskModel(NOT_JSON), 'parse_error', 'the model file is not valid JSON'],
      [() => parseMirrorJson(new TextEncoder().encode(NOT_JSON), 'index'), 'parse_error', "the package mirror's index is not valid JSON"],
      [() => readLabelledFolder(labelled, dir), 'parse_error', 'GROUND_TRUTH.json is not valid JSON'],
      [() => loadReport(bad, 'scanner report'), 'parse_error', 'the scanner report is not valid JSON'],
      [() => readKbJsonFile(bad, 'knowledge base'), 'parse_error', 'the knowledge base file is not valid JSON'],
      [() => readScenarioFile(bad), 'parse_error', 'the scenario file is not valid JSON'],
      [() => knowledgeGraphFromBytes(NOT_JSON), 'validation_failed', 'the knowledge graph is not valid JSON'],
      [() => parseModel(NOT_JSON), 'validation_failed', 'the model file is not valid JSON'],
      [() => parseBundle(NOT_JSON), 'validation_failed', 'the model bundle is not valid JSON (damaged or not a bundle)'],
    ];
    for (const [call, code, message] of cases) expect(await errorOf(call)).toEqual({ code, message, cause: undefined });
  });

  it('is invalid input (exit 2) on the command lines that read a JSON file', async () => {
    const provgate = await provgateMain(['sign', 'commit', bad]);
    expect(provgate).toMatchObject({ code: 2 });
    expect(provgate.stderr).toContain('the payload file is not valid JSON');
    const caseassess = await caseassessMain(['assess', bad]);
    expect(caseassess).toMatchObject({ code: 2 });
    expect(caseassess.stderr).toContain('the case file is not valid JSON');
    expect(provgate.stderr + caseassess.stderr).not.toContain('Zq9');
  });
});
