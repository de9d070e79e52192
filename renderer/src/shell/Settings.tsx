// The Settings page (Ctrl+, or the sidebar's Settings): data folder, evidence root, where package sources, advisory
// imports and trusted keys are managed, the mounted services, the theme. Read-only except the theme: folders are chosen
// when the workstation starts (VITRINE_HOME, FORENSIC_EVIDENCE_ROOT), not from a page.
import { useState, type ReactNode } from 'react';
import type { GatewaySettings } from '../../../engines/core/contracts/gateway';
import { ErrorNote } from '../components/ErrorNote';
import { Modal } from '../components/Modal';
import { useLoad } from '../components/useLoad';
import { PackageSourcesSummary } from './SettingsPackages';
import type { ThemePreference } from '../store';
import { availableWorkspaces } from '../workspaces/registry';
import { useShell, useShellContext } from './context';
import { useSystemPrefersDark } from './useTheme';
import './shell.css';

const THEMES: readonly { readonly value: ThemePreference; readonly label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** A titled group of settings: a section named by its heading. */
function Group({ id, title, children }: { readonly id: string; readonly title: string; readonly children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="settings__group">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Row({ label, children, testId }: { readonly label: string; readonly children: ReactNode; readonly testId?: string }) {
  return (
    <div className="settings__row" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function PathValue({ value }: { readonly value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="settings__path">
      <code className="selectable">{value}</code>
      <button
        type="button"
        className="small"
        onClick={() =>
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}

export function Settings() {
  const open = useShell((s) => s.overlay === 'settings');
  const close = useShell((s) => s.closeOverlay);
  const select = useShell((s) => s.select);
  const services = useShell((s) => s.services);
  const theme = useShell((s) => s.theme);
  const setTheme = useShell((s) => s.setTheme);
  const { client } = useShellContext();
  const systemDark = useSystemPrefersDark();
  // Read each time the page opens (the folders can change between two openings: a restart with other options).
  const read = useLoad(() => (open && client ? client.get<GatewaySettings>('/api/settings') : null), [open, client]);
  const settings = read.data;
  const error = read.error;

  if (!open) return null;
  const mounted = (name: string): boolean => services.some((s) => s.name === name);
  const go = (service: string): void => {
    close();
    select(service);
  };
  const labelOf = (name: string): string => availableWorkspaces(services).find((w) => w.service === name)?.label ?? name;

  return (
    <Modal title="Settings" onClose={close} testId="settings" className="settings">
      {error && <ErrorNote error={error} title="The workstation settings could not be read" />}

      <Group id="settings-folders" title="Folders">
        <dl className="settings__list">
          <Row label="Data folder" testId="settings-data-dir">
            {settings ? <PathValue value={settings.dataDir} /> : <span className="muted">{error ? 'unknown' : 'reading…'}</span>}
            <p className="muted small">
              The store (<code>vitrine.db</code>), the access token and uploads. Another folder: start the workstation with <code>VITRINE_HOME</code> set.
            </p>
          </Row>
          <Row label="Evidence root" testId="settings-evidence-root">
            {settings?.evidenceRoot ? (
              <PathValue value={settings.evidenceRoot} />
            ) : settings ? (
              <span className="neg">not set</span>
            ) : (
              <span className="muted">{error ? 'unknown' : 'reading…'}</span>
            )}
            <p className="muted small">
              {settings && settings.evidenceRoot === null ? 'The Cases workspace can run its scenarios but read no files. ' : 'The Cases workspace reads evidence only below this folder. '}
              Set <code>FORENSIC_EVIDENCE_ROOT</code> before starting the workstation to change it.
            </p>
          </Row>
        </dl>
      </Group>

      <Group id="settings-sources" title="Package sources, advisories and keys">
        <dl className="settings__list">
          <Row label="Package store and advisory imports" testId="settings-packages">
            {mounted('pkgscan') ? (
              <>
                {client && <PackageSourcesSummary client={client} base={services.find((x) => x.name === 'pkgscan')?.base ?? '/svc/pkgscan'} />}
                <p className="muted small">
                  Release archives and advisory imports (OSV, CISA KEV, EPSS, NVD) are added in the {labelOf('pkgscan')} workspace: its Store and Vulnerabilities tabs.
                </p>
                <button type="button" className="small" onClick={() => go('pkgscan')} data-testid="settings-open-packages">
                  Open {labelOf('pkgscan')}
                </button>
              </>
            ) : (
              <span className="muted">Package scanning is not mounted in this workstation.</span>
            )}
          </Row>
          <Row label="Trusted signing keys" testId="settings-keys">
            {mounted('provgate') ? (
              <>
                <p className="small">The Ed25519 keys the provenance gate trusts (imported, generated, revoked; GATE_PUBKEY shown as such) are managed under Trusted keys in {labelOf('provgate')}.</p>
                <button type="button" className="small" onClick={() => go('provgate')} data-testid="settings-open-lineage">
                  Open {labelOf('provgate')}
                </button>
              </>
            ) : (
              <span className="muted">The provenance gate is not mounted in this workstation.</span>
            )}
          </Row>
        </dl>
      </Group>

      <Group id="settings-look" title="Appearance">
        <fieldset className="settings__themes" data-testid="settings-theme">
          <legend className="visually-hidden">Theme</legend>
          {THEMES.map((t) => (
            <label key={t.value}>
              <input type="radio" name="theme" value={t.value} checked={theme === t.value} onChange={() => setTheme(t.value)} /> {t.label}
              {t.value === 'system' && <span className="muted"> (now {systemDark ? 'dark' : 'light'})</span>}
            </label>
          ))}
        </fieldset>
      </Group>

      <Group id="settings-about" title="Workstation">
        <dl className="settings__list">
          <Row label="Version">{settings ? <code>{settings.version}</code> : <span className="muted">…</span>}</Row>
          <Row label="Services" testId="settings-services">
            <ul className="settings__services">
              {services.map((s) => (
                <li key={s.name}>
                  <code>{s.name}</code> <span className="muted">{s.title}</span>{' '}
                  <a href={`${client?.apiBase.replace(/\/+$/, '') ?? ''}${s.base}/docs/`} target="_blank" rel="noopener noreferrer">
                    API docs
                  </a>
                </li>
              ))}
            </ul>
          </Row>
        </dl>
      </Group>
    </Modal>
  );
}
