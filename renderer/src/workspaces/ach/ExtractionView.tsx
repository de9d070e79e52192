// The Extraction view: a report's text (pasted or opened), its indicators and techniques highlighted where they occur, the
// layer and STIX exports, Send to.
import { useRef, useState } from 'react';
import type { ExtractResponse } from '../../../../engines/core/contracts/ach';
import type { ApiClient, ApiError } from '../../api/client';
import { asApiError } from '../../api/client';
import { CountedText, overLimit, TooLongNote } from '../../components/CountedText';
import { downloadJson } from '../../components/download';
import { ErrorNote } from '../../components/ErrorNote';
import { OpenFileButton } from '../../components/OpenFileButton';
import { SendToButton } from '../../components/SendTo';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { displayProse } from '../../components/wording';
import { extractionCounts, extractionFinding, MAX_TEXT_CHARS, reportText, segments } from './model';

interface Props {
  readonly client: ApiClient;
  readonly base: string;
  /** The report's text, shared with the Attribution view. */
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly useClassifier: boolean;
  readonly onClassifier: (on: boolean) => void;
  /** The last extraction (the heat map reads it too). */
  readonly extraction: ExtractResponse | null;
  /** The text the extraction was made from: its spans are offsets into it, not into the text as edited since. */
  readonly extractedText: string;
  readonly onExtraction: (e: ExtractResponse | null, text: string) => void;
  /** The report's name (a file's, else `pasted report`): Send to titles the finding with it. */
  readonly reportName: string;
  readonly onReportName: (name: string) => void;
}

export function ExtractionView({ client, base, text, onText: setText, useClassifier, onClassifier: setUseClassifier, extraction, extractedText, onExtraction: setExtraction, reportName, onReportName: setReportName }: Props) {
  const [extractError, setExtractError] = useState<ApiError | null>(null);
  const [extracting, setExtracting] = useState(false);

  const openReportFile = async (file: File): Promise<void> => {
    setExtractError(null);
    const raw = await file.text();
    setReportName(file.name);
    setText(reportText(file.name, raw));
    setExtraction(null, '');
  };

  const runExtract = async (): Promise<void> => {
    if (text.trim() === '' || overLimit(text, MAX_TEXT_CHARS)) return;
    setExtracting(true);
    try {
      const sent = text;
      setExtraction(await client.post<ExtractResponse>(`${base}/extract`, { text: sent, classifier: useClassifier }), sent);
      setExtractError(null);
    } catch (err) {
      setExtractError(asApiError(err));
    } finally {
      setExtracting(false);
    }
  };

  // Extract is disabled while it runs, which leaves focus on the page: the Spans heading takes it once the spans show.
  const spansHeading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(spansHeading, extraction);

  return (
    <div className="ach__grid">
      <section className="panel" aria-label="Report">
        <CountedText
          title="Report text"
          actions={<OpenFileButton label="Open file…" accept=".txt,.md,.json,.mjson,text/plain" testId="report-file" buttonTestId="open-report" onFile={(f) => void openReportFile(f)} />}
          value={text}
          onChange={setText}
          limit={MAX_TEXT_CHARS}
          className="ach__text"
          placeholder="Paste a threat report (defanged indicators such as hxxp://evil[.]com are refanged)"
          label="Report text"
          testId="report-text"
          onSubmit={() => void runExtract()}
        />
        <div className="row">
          <label>
            <input type="checkbox" checked={useClassifier} onChange={(e) => setUseClassifier(e.target.checked)} /> sentence classifier
          </label>
          <span className="spacer" />
          <TooLongNote text={text} limit={MAX_TEXT_CHARS} />
          <button type="button" className="primary" disabled={extracting || text.trim() === '' || overLimit(text, MAX_TEXT_CHARS)} onClick={() => void runExtract()} data-testid="run-extract">
            {extracting ? 'Extracting…' : 'Extract (Ctrl+Enter)'}
          </button>
        </div>
        {extractError && <ErrorNote error={extractError} title="The extraction failed" />}
      </section>
      <section className="panel" aria-label="Extraction" data-testid="extraction">
        <div className="panel__head row">
          <h2 tabIndex={-1} ref={spansHeading}>
            Spans
          </h2>
          <span className="ach__key ach__key--indicator">indicator</span>
          <span className="ach__key ach__key--technique">technique</span>
          <span className="spacer" />
          <button type="button" className="small" disabled={!extraction} onClick={() => extraction && downloadJson(extraction.layer, 'attrib-layer.json')} data-testid="export-layer">
            Export layer
          </button>
          <button type="button" className="small" disabled={!extraction} onClick={() => extraction && downloadJson(extraction.stix, 'attrib-extraction.stix.json')}>
            Export STIX
          </button>
          <SendToButton client={client} finding={extraction ? extractionFinding(extraction, reportName) : null} label="Send to…" testId="extraction-send-to" />
        </div>
        {!extraction && <p className="muted">Paste a report and press Extract: indicators and techniques are highlighted where they occur.</p>}
        {extraction && extractedText !== text && (
          <p className="ach__stale-note" role="status" data-testid="extraction-stale">
            The report text has changed since this extraction: the marks below are on the text as it was extracted. Press Extract (Ctrl+Enter) to
            extract it again.
          </p>
        )}
        {extraction && (
          <>
            <p className="muted">
              {extractionCounts(extraction.extraction)}
            </p>
            <pre className="ach__spans" data-testid="spans">
              {segments(extractedText.slice(0, extraction.extraction.length), extraction.extraction.indicators, extraction.extraction.techniques).map((s) =>
                s.marks.length === 0 ? (
                  <span key={s.start}>{s.text}</span>
                ) : (
                  <mark
                    key={s.start}
                    className={`ach__mark ${s.marks.some((m) => m.kind === 'indicator') ? 'ach__mark--indicator' : ''} ${s.marks.some((m) => m.kind === 'technique') ? 'ach__mark--technique' : ''}`}
                    title={s.marks.map((m) => m.label).join('\n')}
                  >
                    {s.text}
                  </mark>
                ),
              )}
            </pre>
            {extraction.extraction.warnings.map((w) => (
              <p key={w} className="muted">
                {displayProse(w)}
              </p>
            ))}
          </>
        )}
      </section>
    </div>
  );
}
