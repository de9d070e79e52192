// The Projects tab: projects, a drop or pick of a project's manifests (supported files sent, the rest listed as skipped), its scans, and one scan: decision, findings by file, components with verdicts, SBOMs and the dependency graph.
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import type { PageOf } from '../../../../../engines/core/contracts/pkgscan';
import type { DependencyGraph as Graph, Project, ProjectComponent, ProjectScan, ProjectScanSummary } from '../../../../../engines/core/contracts/pkgscan-projects';
import { ErrorNote } from '../../../components/ErrorNote';
import { pct, when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { severityRank } from '../common/model';
import { DecisionBadge, FilterSelect, PackageLink, Pager, SeverityBadge } from '../common/ui';
import { usePackagesNav } from '../common/nav';
import { shortId, type PkgscanApi } from '../session';
import { DependencyGraph } from './DependencyGraph';
import { droppedFiles, pickedFiles, type PickedFile } from './files';
import { findingsByFile, selectFiles, type Selection } from './model';
import { saveJson } from './save';
import { counted } from '../../../components/wording';

export function ProjectsTab({ api, canWrite }: { api: PkgscanApi; canWrite: boolean }) {
  // A project scan asked for from elsewhere (the search box) opens here; the analyst's own choice after that stands.
  const navProject = usePackagesNav((st) => st.projectScan);
  const [projectId, setProjectId] = useState<string | null>(navProject?.projectId ?? null);
  useEffect(() => {
    if (navProject !== null) setProjectId(navProject.projectId);
  }, [navProject]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction();
  const projects = useLoad(() => api.get<PageOf<Project>>('/projects', { limit: 100 }), [api]);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    await create.run(async () => {
      const p = await api.post<Project>('/projects', { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
      setName('');
      setDescription('');
      projects.reload();
      setProjectId(p.id);
    });
  };

  return (
    <div className="pk-projects">
      <section className="panel pk-projects__list" aria-label="Projects">
        <h2>Projects</h2>
        {projects.error && <ErrorNote error={projects.error} title="The projects could not be listed" />}
        <ul className="packages__list">
          {(projects.data?.items ?? []).map((p) => (
            <li key={p.id}>
              <button type="button" className={`packages__pick${p.id === projectId ? ' packages__pick--active' : ''}`} onClick={() => setProjectId(p.id)} data-testid="project-row">
                <strong>{p.name}</strong> {p.last_scan ? <DecisionBadge decision={p.last_scan.decision} /> : <span className="muted small">not scanned</span>}
                {p.last_scan && <div className="muted small">{when(p.last_scan.created_at)}</div>}
              </button>
            </li>
          ))}
        </ul>
        {projects.data?.items.length === 0 && <div className="empty">No project yet.{canWrite ? ' Create one below.' : ''}</div>}
        {canWrite && (
          <form className="packages__form" onSubmit={(e) => void submit(e)} aria-label="New project" data-testid="project-form">
            <label>
              Project name
              <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
            </label>
            <label>
              Description
              <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
            </label>
            <button type="submit" className="primary" disabled={name.trim() === ''}>
              Create project
            </button>
            {create.error && <ErrorNote error={create.error} title={create.error.status === 409 ? 'A project has that name' : 'Not created'} />}
          </form>
        )}
      </section>
      {projectId ? <ProjectView key={`${projectId}:${navProject?.projectId === projectId ? (navProject.scanId ?? '') : ''}`} api={api} projectId={projectId} initialScan={navProject?.projectId === projectId ? navProject.scanId : null} canWrite={canWrite} onScanned={projects.reload} /> : <section className="panel muted">Pick or create a project.</section>}
    </div>
  );
}

function ProjectView({ api, projectId, initialScan, canWrite, onScanned }: { api: PkgscanApi; projectId: string; initialScan: string | null; canWrite: boolean; onScanned: () => void }) {
  const [scanId, setScanId] = useState<string | null>(initialScan);
  const [offset, setOffset] = useState(0);
  const project = useLoad(() => api.get<Project>(`/projects/${projectId}`), [api, projectId]);
  const scans = useLoad(() => api.get<PageOf<ProjectScanSummary>>(`/projects/${projectId}/scans`, { limit: 10, offset }), [api, projectId, offset]);
  const shown = scanId ?? scans.data?.items[0]?.id ?? null;
  return (
    <div className="ws-column">
      <section className="panel">
        <h2>
          {project.data?.name ?? '…'} {project.data?.description && <span className="pk-sub">{project.data.description}</span>}
        </h2>
        {project.error && <ErrorNote error={project.error} title="The project could not be read" />}
        {canWrite && (
          <Uploader
            api={api}
            projectId={projectId}
            onScan={(s) => {
              setScanId(s.id);
              setOffset(0);
              scans.reload();
              onScanned();
            }}
          />
        )}
        {scans.data && scans.data.total > 0 && (
          <>
            <table className="packages__table" aria-label="Scans of this project">
              <thead>
                <tr>
                  <th>Scan</th>
                  <th>Decision</th>
                  <th className="num">Risk</th>
                  <th className="num">Files</th>
                  <th className="num">Components</th>
                  <th className="num">Findings</th>
                  <th>When</th>
                </tr>
              </thead>
              <tbody>
                {scans.data.items.map((s) => (
                  <tr key={s.id} className={s.id === shown ? 'pk-row--on' : ''}>
                    <td>
                      <button type="button" className="packages__goto" onClick={() => setScanId(s.id)}>
                        {shortId(s.id)}
                      </button>{' '}
                      <span className="muted small">{s.environment}</span>
                    </td>
                    <td>
                      <DecisionBadge decision={s.decision} />
                    </td>
                    <td className="num">{pct(s.risk)}</td>
                    <td className="num">{s.counts.files}</td>
                    <td className="num">{s.counts.components}</td>
                    <td className="num">{s.counts.findings}</td>
                    <td className="muted">{when(s.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager offset={offset} limit={10} total={scans.data.total} onOffset={setOffset} older="Older" newer="Newer" />
          </>
        )}
      </section>
      {shown && <ScanView key={shown} api={api} projectId={projectId} scanId={shown} />}
    </div>
  );
}

function Uploader({ api, projectId, onScan }: { api: PkgscanApi; projectId: string; onScan: (s: ProjectScan) => void }) {
  const [over, setOver] = useState(false);
  const [picked, setPicked] = useState<Selection<PickedFile> | null>(null);
  const [environment, setEnvironment] = useState('');
  const [busy, setBusy] = useState(false);
  const action = useAction();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const take = (files: PickedFile[]): void => setPicked(selectFiles(files));
  const onDrop = (e: DragEvent): void => {
    e.preventDefault();
    setOver(false);
    void droppedFiles(e.dataTransfer).then(take);
  };
  const scan = async (): Promise<void> => {
    if (!picked || picked.send.length === 0) return;
    setBusy(true);
    await action.run(async () => {
      const files: Record<string, string> = {};
      for (const f of picked.send) files[f.path] = await f.file.text();
      const s = await api.post<ProjectScan>(`/projects/${projectId}/scans`, { files, ...(environment.trim() ? { environment: environment.trim() } : {}) });
      setPicked(null);
      onScan(s);
    });
    setBusy(false);
  };
  return (
    <div
      className={`drop-target pk-drop${over ? ' drop-target--over' : ''}`}
      data-testid="project-drop"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          setOver(true);
        }
      }}
      onDragLeave={(e) => {
        if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setOver(false);
      }}
      onDrop={onDrop}
    >
      <p className="drop-target__hint muted small">
        Drop the project folder here, or pick files or a folder. Only manifests, lock files, Dockerfiles, Compose files and <code>.npmrc</code> are sent (at most 50 files, 1 MB each, 5 MB in all); nothing is fetched or run.
      </p>
      <div className="packages__actions">
        <input ref={filesInput} type="file" multiple className="visually-hidden" aria-label="Project files" onChange={(e) => {
          take(pickedFiles([...(e.target.files ?? [])]));
          e.target.value = '';
        }} />
        <input ref={folderInput} type="file" className="visually-hidden" aria-label="Project folder" {...{ webkitdirectory: '' }} onChange={(e) => {
          take(pickedFiles([...(e.target.files ?? [])]));
          e.target.value = '';
        }} />
        <button type="button" onClick={() => filesInput.current?.click()}>
          Choose files…
        </button>
        <button type="button" onClick={() => folderInput.current?.click()}>
          Choose a folder…
        </button>
        <input aria-label="Environment" placeholder="environment (policy default)" size={30} value={environment} onChange={(e) => setEnvironment(e.target.value)} maxLength={64} />
        <button type="button" className="primary" disabled={busy || !picked || picked.send.length === 0} onClick={() => void scan()}>
          {busy ? 'Scanning…' : `Scan ${counted(picked?.send.length ?? 0, 'file')}`}
        </button>
      </div>
      {picked && (
        <div className="pk-picked" data-testid="picked-files">
          <div>
            <strong className="small">To send ({picked.send.length})</strong>
            <ul className="small">
              {picked.send.map((f) => (
                <li key={f.path} className="pk-wrap">
                  {f.path}
                </li>
              ))}
            </ul>
          </div>
          {picked.skipped.length > 0 && (
            <details>
              <summary className="small">Skipped ({picked.skipped.length})</summary>
              <ul className="small muted" data-testid="skipped-files">
                {picked.skipped.slice(0, 200).map((s) => (
                  <li key={s.path} className="pk-wrap">
                    {s.path} — {s.why}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
      {action.error && <ErrorNote error={action.error} title="The scan was refused" />}
    </div>
  );
}

function ScanView({ api, projectId, scanId }: { api: PkgscanApi; projectId: string; scanId: string }) {
  const base = `/projects/${projectId}/scans/${scanId}`;
  const scan = useLoad(() => api.get<ProjectScan>(base), [api, base]);
  const graph = useLoad(() => api.get<Graph>(`${base}/graph`), [api, base]);
  const sbom = useAction();
  const download = (format: 'cyclonedx' | 'spdx'): Promise<void> =>
    sbom.run(async () => saveJson(await api.get<unknown>(`${base}/sbom`, { format }), `${scan.data ? shortId(scan.data.id) : 'project'}.${format === 'spdx' ? 'spdx' : 'cdx'}.json`));
  if (scan.error) return <ErrorNote error={scan.error} title="The scan could not be read" />;
  const s = scan.data;
  if (!s) return <section className="panel muted">Loading the scan…</section>;
  return (
    <div className="ws-column" data-testid="project-scan">
      <section className={`panel pk-verdict__head pk-verdict__head--${s.decision} pk-head--stack`}>
        <div className="packages__filters">
          <DecisionBadge decision={s.decision} large />
          <span>
            risk <strong data-testid="project-risk">{pct(s.risk)}</strong> · {counted(s.counts.files, 'file')} · {counted(s.counts.components, 'component')} · {counted(s.counts.findings, 'finding')} · {counted(s.counts.warnings, 'parser warning')} · {s.environment}
          </span>
          <span className="pk-span" />
          <button type="button" onClick={() => void download('cyclonedx')}>
            CycloneDX SBOM
          </button>
          <button type="button" onClick={() => void download('spdx')}>
            SPDX SBOM
          </button>
        </div>
        {s.decision_reasons.length > 0 && (
          <ul className="pk-reasons small">
            {s.decision_reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        )}
        {sbom.error && <ErrorNote error={sbom.error} title="The SBOM could not be made" />}
      </section>
      <section className="panel" aria-label="Files read">
        <h2>Files</h2>
        <table className="packages__table">
          <thead>
            <tr>
              <th>File</th>
              <th>Format</th>
              <th>Ecosystem</th>
              <th className="num">Entries</th>
              <th>Read</th>
            </tr>
          </thead>
          <tbody>
            {s.manifests.map((m) => (
              <tr key={m.file} data-testid="manifest-row">
                <td className="pk-wrap">{m.file}</td>
                <td>
                  {m.format} {m.format_version && <span className="muted small">v{m.format_version}</span>}
                </td>
                <td>{m.ecosystem ?? '—'}</td>
                <td className="num">{m.entries}</td>
                <td className={m.status === 'failed' ? 'warn' : 'muted'}>{m.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {s.skipped_files.length > 0 && <p className="muted small">Not read (no reader): {s.skipped_files.join(', ')}</p>}
        {s.parser_warnings.length > 0 && (
          <details>
            <summary className="small">Parser warnings ({s.parser_warnings.length})</summary>
            <ul className="small">
              {s.parser_warnings.map((w, i) => (
                <li key={i}>
                  <code>{w.code}</code> {w.file}
                  {w.line !== null && `:${w.line}`} — {w.message}
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
      <ProjectFindings scan={s} />
      {graph.error && <ErrorNote error={graph.error} title="The graph could not be read" />}
      {graph.data && graph.data.nodes.length > 0 && <DependencyGraph graph={graph.data} />}
      <Components api={api} base={base} />
    </div>
  );
}

function ProjectFindings({ scan }: { scan: ProjectScan }) {
  const groups = findingsByFile(scan.findings);
  return (
    <section className="panel" aria-label="Findings by file">
      <h2>
        Findings <span className="pk-sub">{scan.findings.length.toLocaleString('en')} in {counted(groups.length, 'file')}</span>
      </h2>
      {groups.length === 0 && <p className="muted">No hygiene, confusion, Dockerfile or Compose finding.</p>}
      {groups.map((g) => (
        <details key={g.file} className="pk-file" open={groups.length <= 3 || severityRank(g.severity) >= 2} data-testid="project-finding-group">
          <summary>
            <SeverityBadge severity={g.severity} /> <span className="pk-where">{g.file}</span> <span className="muted small">{counted(g.findings.length, 'finding')}</span>
          </summary>
          <ul className="pk-findings">
            {g.findings.slice(0, 300).map((f, i) => (
              <li key={i} className={`pk-finding pk-finding--${f.severity}`} data-testid="project-finding">
                <div className="pk-finding__head">
                  <SeverityBadge severity={f.severity} />
                  <code className="pk-code">{f.code}</code>
                  {f.rule_id && <code className="pk-technique">{f.rule_id}</code>}
                  <span>{f.message}</span>
                  <span className="muted small pk-finding__meta">
                    {f.category}
                    {f.line !== null && ` · line ${f.line}`}
                  </span>
                </div>
              </li>
            ))}
          </ul>
          {g.findings.length > 300 && <div className="muted small">{g.findings.length - 300} more in this file.</div>}
        </details>
      ))}
    </section>
  );
}

function Components({ api, base }: { api: PkgscanApi; base: string }) {
  const [direct, setDirect] = useState<'' | 'true' | 'false'>('');
  const [offset, setOffset] = useState(0);
  const limit = 50;
  const list = useLoad(() => api.get<PageOf<ProjectComponent>>(`${base}/components`, { limit, offset, direct: direct || undefined }), [api, base, direct, offset]);
  return (
    <section className="panel" aria-label="Components">
      <div className="packages__filters">
        <h2>
          Components <span className="pk-sub">{list.data?.total ?? '…'}</span>
        </h2>
        <FilterSelect label="Direct or transitive" value={direct} onChange={(v) => {
          setDirect(v as '' | 'true' | 'false');
          setOffset(0);
        }} any="direct and transitive" options={[['true', 'direct only'], ['false', 'transitive only']]} />
      </div>
      {list.error && <ErrorNote error={list.error} title="The components could not be listed" />}
      <table className="packages__table">
        <thead>
          <tr>
            <th>Component</th>
            <th>Kind</th>
            <th>Newest verdict</th>
            <th>Files</th>
          </tr>
        </thead>
        <tbody>
          {(list.data?.items ?? []).map((c) => (
            <tr key={`${c.ecosystem}/${c.name}@${c.version}`} data-testid="component-row">
              <td>
                <PackageLink ecosystem={c.ecosystem} name={c.name} version={c.version} />
              </td>
              <td className="small">
                {c.direct ? 'direct' : 'transitive'}
                {c.dev && <span className="muted"> · dev</span>}
              </td>
              <td>
                {c.verdict ? (
                  <>
                    <DecisionBadge decision={c.verdict.decision} /> <span className="muted small">{pct(c.verdict.risk_score)} · {when(c.verdict.created_at)}</span>
                  </>
                ) : (
                  <span className="muted small">never scanned</span>
                )}
              </td>
              <td className="muted small pk-wrap">{c.files.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data && <Pager offset={offset} limit={limit} total={list.data.total} onOffset={setOffset} />}
    </section>
  );
}
