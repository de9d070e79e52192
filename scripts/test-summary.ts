// Prints vitest's JSON report as one plain closing line, `tests: N passed, N failed, N skipped`, for CI's reader.
import { readFileSync } from 'node:fs';

interface VitestJson {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
}

const file = process.argv[2] ?? 'test-results/vitest.json';
try {
  const report = JSON.parse(readFileSync(file, 'utf8')) as VitestJson;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`tests: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed, ${skipped} skipped`);
} catch {
  console.log('tests: 0 passed, 1 failed');
  process.exitCode = 1;
}
