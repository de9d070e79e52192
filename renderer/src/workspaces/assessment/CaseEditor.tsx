// The case editor: load a file (button or drag and drop), paste or type JSON, the sample case, Run; 422 field errors beside it.
import { useId } from 'react';
import type { ApiError } from '../../api/client';
import { OpenFileButton } from '../../components/OpenFileButton';
import { ErrorNote } from '../../components/ErrorNote';
import { Progress } from '../../components/Progress';
import { useFileDrop } from '../../components/useFileDrop';
import { MAX_CASE_BYTES } from './model';
import sampleCase from './sample-case.json';

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
}

export const SAMPLE_CASE_TEXT = `${JSON.stringify(sampleCase, null, 2)}\n`;

export function CaseEditor(props: CaseEditorProps) {
  const { text, onText, origin, running, progress, onRun, localError, onLocalError, serviceError } = props;
  const editorId = useId();

  const readFile = async (file: File): Promise<void> => {
    if (file.size > MAX_CASE_BYTES) {
      onLocalError('That file is larger than 5 MB; a case file is a JSON document of a few kilobytes.');
      return;
    }
    try {
      onText(await file.text(), file.name);
      onLocalError(null);
    } catch {
      onLocalError('The file could not be read.');
    }
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
          <button
            type="button"
            className="small"
            onClick={() => {
              onText(SAMPLE_CASE_TEXT, 'sample case');
              onLocalError(null);
            }}
          >
            Sample case
          </button>
        </div>
      </div>
      <label htmlFor={editorId} className="muted drop-target__hint">
        {origin ? `From ${origin}. ` : ''}Paste or type a case file, or drop a .json file here.
      </label>
      <textarea
        id={editorId}
        className="code case-editor__text"
        spellCheck={false}
        autoComplete="off"
        value={text}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${editorId}-problems` : undefined}
        placeholder={'{\n  "case_id": "CASE-1",\n  "techniques": [{ "evidence_id": "E1", "id": "T1566.001" }]\n}'}
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
        {localError && (
          <div className="error-note" role="alert">
            <div className="error-note__title">The case was not sent</div>
            <div>{localError}</div>
          </div>
        )}
        {serviceError && (
          <ErrorNote error={serviceError} title={serviceError.status === 422 ? 'The service refused this case file' : 'The assessment failed'} />
        )}
      </div>
    </section>
  );
}
