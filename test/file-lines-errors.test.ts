// What the streamed line readers of core/ml (vector files) and flowdet (flow CSVs) answer for a missing or unreadable file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsvVectorsFile } from '../engines/core/ml/dataset.js';
import { readFlowCsvFile } from '../engines/flowdet/data/csv.js';

const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-file-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a file that cannot be read line by line', () => {
  it('is not_found when missing and bad_request when unreadable (a folder), naming the kind of file, never the path', async () => {
    const missing = path.join(dir, 'missing.csv');
    await expect(readCsvVectorsFile(missing)).rejects.toMatchObject({ code: 'not_found', message: 'the vector file does not exist' });
    await expect(readCsvVectorsFile(dir)).rejects.toMatchObject({ code: 'bad_request', message: 'the vector file could not be read' });
    await expect(readFlowCsvFile(missing)).rejects.toMatchObject({ code: 'not_found', message: 'the flow CSV does not exist' });
    await expect(readFlowCsvFile(dir)).rejects.toMatchObject({ code: 'bad_request', message: 'the flow CSV could not be read' });
  });
});
