// The case editor: load a file (button or drag and drop), paste or type JSON, the sample case, Run; 422 field errors beside it.
import { useId } from 'react';
import type { ApiError } from '../../api/client';
import { OpenFileButton } from '../../components/OpenFileButton';
import { ErrorNote, LocalErrorNote } from '../../components/ErrorNote';
import { Progress } from '../../components/Progress';
import { useFileDrop } from '../../components/useFileDrop';
import { isStixBundle } from '../../components/StixImportSummary';
import type { StoredCaseSummary } from '../../../../engines/core/contracts/caseassess';
import { MAX_CASE_BYTES, SAMPLE_ORIGIN, originNote } from './model';
import { counted } from '../../components/wording';
import sampleCase from './sample-case.json';

/**
 * The empty editor's example: one key a line, as JSON.stringify indents it. The editor keeps lines whole
 * (white-space: pre), so each line must fit the box by itself; assessment.test.ts measures it at 1400 px.
 */
const EXAMPLE_CASE_TEXT = JSON.stringify({ case_id: 'CASE-1', techniques: [{ evidence_id: 'E1', id: 'T1566.001' }] }, null, 2);

export interface CaseEditorProps {
  readonly text: string;
  readonly onText: (text: string, origin: string | null) => void;
  readonly origin: string | null;
  readonly running: boolean;
  readonly progress: number | undefined;
  readonly onRun: () => void;
  /** A problem with the text before it was sent (not JSON, file too big). */
  readonly localError: string | null;
  readonly onLocalError: (message: string | null) => void;
  /** The service's answer when it refused the case (422 with field paths) or failed. */
  readonly serviceError: ApiError | null;
  /** A STIX 2.1 bundle opened, dropped or pasted: the workspace imports it (POST /cases/import/stix). */
  readonly onStixBundle: (bundle: unknown, name: string) => void;
  readonly importing: boolean;
  /** Stored cases (GET /cases): saved, imported, or grown by Send to Assessment. */
  readonly stored: readonly StoredCaseSummary[];
  readonly onOpenStored: (caseId: string) => void;
  readonly onSave: () => void;
}

export const SAMPLE_CASE_TEXT = `${JSON.stringify(sampleCase, null, 2)}\n`;

export function CaseEditor(props: CaseEditorProps) {
  const { text, onText, origin, running, progress, onRun, localError, onLocalError, serviceError, onStixBundle, importing, stored, onOpenStored, onSave } = props;
  const editorId = useId();

  const readFile = async (file: File): Promise<void> => {
    if (file.size > MAX_CASE_BYTES) {
      onLocalError('That file is larger than 5 MB; a case file is a JSON document of a few kilobytes.');
      return;
    }
    let content: string;
    try {
      content = await file.text();
    } catch {
      onLocalError('The file could not be read.');
      return;
    }
    let parsed: unknown = undefined;
    try {
      parsed = JSON.parse(content) as unknown;
    } catch {
      // Not JSON: it goes to the editor, where Run names the line and column.
    }
    onLocalError(null);
    if (isStixBundle(parsed)) onStixBundle(parsed, file.name);
    else onText(content, file.name);
  };

  const { dropClass, dropProps } = useFileDrop((file) => void readFile(file));

  const invalid = localError !== null || (serviceError?.details.length ?? 0) > 0;
  return (
    <section
      className={`panel case-editor ${dropClass}`}
      aria-labelledby={`${editorId}-title`}
      {...dropProps}
    >
      <div className="panel__head">
        <h2 id={`${editorId}-title`}>Case</h2>
        <div className="row">
          <OpenFileButton label="Open file…" accept=".json,application/json" onFile={(f) => void readFile(f)} />
          <OpenFileButton label={importing ? 'Importing…' : 'Import STIX…'} accept=".json,application/json,application/stix+json" disabled={importing} testId="case-stix-file" buttonTestId="import-stix" onFile={(f) => void readFile(f)} />
          <button
            type="button"
            className="small"
            onClick={() => {
              onText(SAMPLE_CASE_TEXT, SAMPLE_ORIGIN);
              onLocalError(null);
            }}
          >
            Sample case
          </button>
        </div>
      </div>
      <div className="row case-editor__stored">
        <label>
          Stored case{' '}
          <select value="" onChange={(e) => e.target.value !== '' && onOpenStored(e.target.value)} aria-label="Open a stored case" data-testid="stored-cases" disabled={stored.length === 0}>
            <option value="">{stored.length === 0 ? 'none yet' : `open one of ${stored.length}…`}</option>
            {stored.map((c) => (
              <option key={c.case_id} value={c.case_id}>
                {c.title ?? c.case_id} ({counted(c.evidence_count, 'item')})
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="small" onClick={onSave} disabled={text.trim() === ''} data-testid="save-case" title="Keep this case in the store, so findings can be sent to it">
          Save
        </button>
        {stored.length === 0 && <span className="muted small">Import STIX, Save, or Send to Assessment adds one.</span>}
      </div>
      <label htmlFor={editorId} className="muted drop-target__hint">
        {originNote(origin)}Paste or type a case file, or drop a .json file or a STIX 2.1 bundle here.
      </label>
      <textarea
        id={editorId}
        className="code case-editor__text"
        spellCheck={false}
        autoComplete="off"
        value={text}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${editorId}-problems` : undefined}
        placeholder={EXAMPLE_CASE_TEXT}
        onChange={(e) => {
          onText(e.target.value, origin);
          if (localError) onLocalError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !running) {
            e.preventDefault();
            onRun();
          }
        }}
      />
      <div className="row case-editor__run">
        <button type="button" className="primary" onClick={onRun} disabled={running} data-testid="run-assessment">
          {running ? 'Assessing…' : 'Run assessment'}
        </button>
        {running ? <Progress fraction={progress} label="Assessment progress" /> : <span className="muted">Ctrl+Enter in the editor runs it too.</span>}
      </div>
      <div id={`${editorId}-problems`} data-testid="case-problems">
        {localError && <LocalErrorNote title="The case was not sent" message={localError} />}
        {serviceError && (
          <ErrorNote error={serviceError} title={serviceError.status === 422 ? 'The service refused this case file' : 'The assessment failed'} />
        )}
      </div>
    </section>
  );
}
