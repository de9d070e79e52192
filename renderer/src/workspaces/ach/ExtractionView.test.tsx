// @vitest-environment jsdom
// The Extraction view marks indicators and techniques on the text they were found in: once the report text is edited,
// the marks stay on the extracted text (their offsets point into it) and a note says the extraction is stale.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExtractResponse } from '../../../../engines/core/contracts/ach';
import type { ApiClient } from '../../api/client';
import { ExtractionView } from './ExtractionView';

afterEach(cleanup);

const EXTRACTED = 'Ran it with PowerShell (T1059.001).';
const EXTRACTION: ExtractResponse = {
  extraction: {
    length: EXTRACTED.length,
    indicators: [],
    techniques: [{ id: 'T1059.001', name: 'PowerShell', start: 24, end: 33, source: 'id' }],
    technique_summary: [{ id: 'T1059.001', name: 'PowerShell', tactics: ['execution'], count: 1, sources: ['id'] }],
    warnings: [],
  },
  layer: { name: 'x', versions: { layer: '4.5' }, domain: 'enterprise-attack', techniques: [] },
  stix: { type: 'bundle', id: 'bundle--1', objects: [] },
};

function view(text: string) {
  return render(
    <ExtractionView
      client={{ apiBase: '' } as ApiClient}
      base="/svc/attrib"
      text={text}
      onText={() => undefined}
      useClassifier={false}
      onClassifier={() => undefined}
      extraction={EXTRACTION}
      extractedText={EXTRACTED}
      onExtraction={() => undefined}
      reportName="pasted report"
      onReportName={() => undefined}
    />,
  );
}

describe('ExtractionView', () => {
  it('marks the technique id in the extracted text, with no stale note while the text is the same', () => {
    view(EXTRACTED);
    expect(screen.getByTestId('spans').querySelector('mark')?.textContent).toBe('T1059.001');
    expect(screen.queryByTestId('extraction-stale')).toBeNull();
  });

  it('keeps the marks on the extracted text once the report text is edited, and says the extraction is stale', () => {
    view(`A new first sentence. ${EXTRACTED}`);
    expect(screen.getByTestId('spans').textContent).toBe(EXTRACTED);
    expect(screen.getByTestId('spans').querySelector('mark')?.textContent).toBe('T1059.001');
    expect(screen.getByTestId('extraction-stale').textContent).toContain('changed since this extraction');
  });
});
