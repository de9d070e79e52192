// The Triage workspace: drop or pick a PE file, it is uploaded as raw bytes and analysed statically; verdict, drivers, capabilities, structure and a candidate rule come back.
import { useRef, useState } from 'react';
import type { TriageResult } from '../../../../engines/core/contracts/petriage';
import { ApiError } from '../../api/client';
import { OpenFileButton } from '../../components/OpenFileButton';
import { ErrorNote } from '../../components/ErrorNote';
import { Progress } from '../../components/Progress';
import { FilterField, WorkspaceHeader } from '../../components/WorkspaceHeader';
import { useFileDrop } from '../../components/useFileDrop';
import { useShell } from '../../shell/context';
import { activeJobs } from '../../store';
import type { WorkspaceProps } from '../registry';
import { refuseBeforeUpload, type UploadProgress } from './model';
import { RuleEditor } from './RuleEditor';
import { CapabilitiesPanel, DriversPanel, ExportsPanel, FamilyPanel, ImportsPanel, SectionsPanel, VerdictPanel } from './Views';
import './triage.css';

interface Shown {
  readonly result: TriageResult;
  readonly fileLabel: string;
}

const PHASE_WORDS: Record<UploadProgress['phase'], string> = { reading: 'Reading the file…', uploading: 'Uploading…', analysing: 'Analysing…' };

export default function TriageWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [shown, setShown] = useState<Shown | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [serviceError, setServiceError] = useState<ApiError | null>(null);
  const [filter, setFilter] = useState('');
  const inFlight = useRef<AbortController | null>(null);
  const jobs = useShell((s) => s.jobs);
  // While the service analyses, its job's progress events (over /api/events) give the bar a real fraction.
  const jobFraction = progress?.phase === 'analysing' ? activeJobs(jobs).filter((j) => j.service === service.name).at(-1)?.fraction : undefined;
  const busy = progress !== null;

  const analyse = async (file: File): Promise<void> => {
    const refused = refuseBeforeUpload(file.size);
    setServiceError(null);
    if (refused) {
      setLocalError(refused);
      return;
    }
    setLocalError(null);
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setProgress({ phase: 'uploading', fraction: 0 });
    try {
      const result = await client.upload<TriageResult>(`${base}/api/analyze`, file, { onProgress: setProgress, signal: controller.signal });
      setShown({ result, fileLabel: file.name });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      setServiceError(err instanceof ApiError ? err : new ApiError(0, 'bad_response', 'The answer could not be read.'));
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setProgress(null);
      }
    }
  };

  const { dropClass, dropProps } = useFileDrop((file) => void analyse(file));

  const result = shown?.result;
  const errorTitle =
    serviceError?.code === 'parse_error' ? 'Not a PE file' : serviceError?.code === 'payload_too_large' ? 'The file is too large' : 'The analysis failed';

  return (
    // The whole page takes the drop: a file dropped beside the box would otherwise make the browser open it and lose the page.
    <div
      className="ws-page triage"
      {...dropProps}
    >
      <WorkspaceHeader title="Triage" purpose="Static triage of Windows executables: nothing is executed">
        <FilterField value={filter} onChange={setFilter} placeholder="Filter imports, exports, capabilities  ( / )" label="Filter imports, exports and capabilities" />
      </WorkspaceHeader>

      <section
        className={`panel dropzone ${dropClass}${result ? ' dropzone--compact' : ''}`}
        aria-label="File to triage"
        data-testid="triage-drop"
      >
        <div className="row dropzone__row">
          <OpenFileButton
            primary
            label={result ? 'Triage another file…' : 'Choose a PE file…'}
            disabled={busy}
            buttonTestId="triage-pick"
            testId="triage-file"
            onFile={(f) => void analyse(f)}
          />
          <span className="muted">
            or drop an .exe, .dll or .sys anywhere on this page (up to 32 MiB). The file is parsed and scored, never run.
          </span>
          {busy && (
            <button type="button" className="small" onClick={() => inFlight.current?.abort()}>
              Cancel
            </button>
          )}
        </div>
        {progress && (
          <div className="row dropzone__progress" data-testid="triage-progress">
            <span className="muted">{PHASE_WORDS[progress.phase]}</span>
            <Progress fraction={progress.phase === 'analysing' ? jobFraction : progress.fraction} label={PHASE_WORDS[progress.phase]} />
          </div>
        )}
        <div data-testid="triage-problems">
          {localError && (
            <div className="error-note" role="alert">
              <div className="error-note__title">The file was not sent</div>
              <div>{localError}</div>
            </div>
          )}
          {serviceError && <ErrorNote error={serviceError} title={errorTitle} />}
        </div>
      </section>

      {!result ? (
        !busy && (
          <section className="panel empty-result" data-testid="triage-empty">
            <h2>No file triaged yet</h2>
            <p className="muted">
              Drop a PE file (an .exe, .dll or .sys) on this page, or press <strong>Choose a PE file…</strong>. The service reads its structure,
              imports and strings, scores it with the model and names the features behind the score, the capabilities with their ATT&amp;CK
              techniques, the nearest known family, and, for a file that is not benign, a candidate YARA rule you can edit and re-validate here.
              Nothing in the file is executed.
            </p>
          </section>
        )
      ) : (
        <div className="triage__grid" data-testid="triage-result">
          <div className="triage__col">
            <VerdictPanel result={result} fileLabel={shown.fileLabel} />
            <DriversPanel result={result} />
            <CapabilitiesPanel result={result} filter={filter} />
            <FamilyPanel result={result} />
          </div>
          <div className="triage__col">
            <SectionsPanel result={result} />
            <ImportsPanel result={result} filter={filter} />
            <ExportsPanel result={result} filter={filter} />
          </div>
          <div className="triage__wide">
            <RuleEditor
              key={result.sha256}
              client={client}
              base={base}
              initial={result.rule?.text ?? ''}
              absentReason={
                result.rule
                  ? null
                  : result.verdict === 'BENIGN'
                    ? 'No rule was synthesised: rules are made only for files that are not BENIGN. You can still write one here and validate it.'
                    : 'No rule was synthesised (see the notes). You can write one here and validate it.'
              }
            />
          </div>
        </div>
      )}
    </div>
  );
}
