// The Trusted keys panel of the Lineage workspace: the keys the gate verifies with (store, GATE_PUBKEY, demo), import a
// public key, generate a pair (the private key is shown once and never stored), revoke a store key (permanent, logged).
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { GeneratedKey, KeyLog, TrustedKeyItem, TrustedKeyList } from '../../../../engines/core/contracts/provgate';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { downloadText } from '../../components/download';
import { ErrorNote } from '../../components/ErrorNote';
import { OpenFileButton } from '../../components/OpenFileButton';
import { keyFormProblem, keyLabel, MAX_KEY_TEXT, orderKeys, privateKeyFileName, shortId, signingHint, sourceLabel } from './keys';
import { plural, when } from './model';

export interface TrustedKeysProps {
  readonly client: ApiClient;
  readonly base: string;
  /** Called after a key was added or revoked (the workspace re-reads the service's health). */
  readonly onChanged: () => void;
}

function KeyRow({ k, onRevoke, busy }: { readonly k: TrustedKeyItem; readonly onRevoke: (reason: string) => void; readonly busy: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <li className={`tkey${k.status === 'revoked' ? ' tkey--revoked' : ''}`} data-keyid={k.keyid} data-testid="trusted-key">
      <div className="tkey__head">
        <code className="tkey__id selectable" title={k.keyid}>
          {shortId(k.keyid)}
        </code>
        <span className={`tkey__src tkey__src--${k.source}`}>{sourceLabel(k)}</span>
        {k.status === 'revoked' ? <span className="tkey__status neg">revoked</span> : <span className="tkey__status pos">trusted</span>}
        <span className="spacer" />
        {k.revocable && !confirming && (
          <button type="button" className="small" onClick={() => setConfirming(true)} disabled={busy} aria-label={`Revoke key ${k.keyid}`}>
            Revoke…
          </button>
        )}
      </div>
      <div className="muted tkey__meta">
        {k.label !== null && <span>{k.label}</span>}
        {k.fingerprint !== '' && k.fingerprint !== k.keyid && (
          <span title={k.fingerprint}>
            fingerprint <code>{shortId(k.fingerprint)}</code>
          </span>
        )}
        {k.origin !== null && <span>{k.origin}</span>}
        {k.addedAt !== null && <span>added {when(k.addedAt)}</span>}
        {k.revokedAt !== null && <span>revoked {when(k.revokedAt)}</span>}
        {k.revokeReason !== null && <span>“{k.revokeReason}”</span>}
        {k.source === 'env' && <span>set when the service started; unset GATE_PUBKEY and restart to drop it</span>}
      </div>
      {confirming && (
        <form
          className="tkey__confirm"
          role="alertdialog"
          aria-label={`Revoke key ${k.keyid}`}
          onKeyDown={(e) => e.key === 'Escape' && setConfirming(false)}
          onSubmit={(e) => {
            e.preventDefault();
            onRevoke(reason);
            setConfirming(false);
          }}
        >
          <p>Revoke this key? Envelopes it alone signs are rejected from now on. Revocation is permanent and recorded in the key log.</p>
          <div className="row">
            <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} placeholder="reason (optional)" aria-label="Reason for revoking" />
            {/* The safe choice takes the focus, so Enter keeps the key. */}
            <button type="button" autoFocus onClick={() => setConfirming(false)}>
              Keep
            </button>
            <button type="submit" className="danger" data-testid="confirm-revoke">
              Revoke
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

export function TrustedKeys({ client, base, onChanged }: TrustedKeysProps) {
  const [list, setList] = useState<TrustedKeyList | null>(null);
  const [listError, setListError] = useState<ApiError | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [mode, setMode] = useState<'none' | 'import' | 'generate'>('none');
  const [text, setText] = useState('');
  const [keyid, setKeyid] = useState('');
  const [label, setLabel] = useState('');
  const [generated, setGenerated] = useState<GeneratedKey | null>(null);
  const [log, setLog] = useState<KeyLog | null>(null);
  const ids = useId();

  const load = useCallback(async () => {
    try {
      setList(await client.get<TrustedKeyList>(`${base}/v1/keys`));
      setListError(null);
    } catch (err) {
      setListError(asApiError(err));
    }
  }, [client, base]);
  useEffect(() => {
    void load();
  }, [load]);

  const changed = async (): Promise<void> => {
    await load();
    if (log !== null) setLog(await client.get<KeyLog>(`${base}/v1/keys/log`, { query: { limit: 500 } }).catch(() => null));
    onChanged();
  };

  const reset = (): void => {
    setText('');
    setKeyid('');
    setLabel('');
    setProblem(null);
    setError(null);
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setError(null);
    const id = keyid.trim();
    if (mode === 'import') {
      const p = keyFormProblem(text, id);
      setProblem(p);
      if (p !== null) return;
    } else if (id !== '' && keyFormProblem('x', id) !== null) {
      setProblem(keyFormProblem('x', id));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const body = { ...(id !== '' ? { keyid: id } : {}), ...(label.trim() !== '' ? { label: label.trim() } : {}) };
      if (mode === 'import') await client.post<TrustedKeyItem>(`${base}/v1/keys`, { publicKey: text.trim(), ...body });
      else setGenerated(await client.post<GeneratedKey>(`${base}/v1/keys/generate`, body));
      reset();
      setMode('none');
      await changed();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (k: TrustedKeyItem, reason: string): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await client.post<TrustedKeyItem>(`${base}/v1/keys/${encodeURIComponent(k.keyid)}/revoke`, reason.trim() === '' ? {} : { reason: reason.trim() });
      await changed();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };

  const toggleLog = async (): Promise<void> => {
    if (log !== null) {
      setLog(null);
      return;
    }
    try {
      setLog(await client.get<KeyLog>(`${base}/v1/keys/log`, { query: { limit: 500 } }));
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const items = list ? orderKeys(list.items) : [];
  return (
    <section className="panel trusted-keys" aria-label="Trusted keys" data-testid="trusted-keys">
      <div className="panel__head">
        <h2>Trusted keys</h2>
        {list && <span className="muted">{list.trusted === 1 ? '1 trusted' : `${list.trusted} trusted`}</span>}
      </div>
      {listError && <ErrorNote error={listError} title="The keys could not be listed" />}
      {list?.trustProblem && <p className="neg small">GATE_PUBKEY could not be used: {list.trustProblem}</p>}
      {list && items.length === 0 && (
        <p className="muted" data-testid="no-keys">
          No key yet. Import the public key your SBOMs and scanner output are signed with, or generate a pair here and sign with its private key.
        </p>
      )}
      <ul className="tkeys">
        {items.map((k) => (
          <KeyRow key={`${k.source}:${k.keyid}`} k={k} busy={busy} onRevoke={(reason) => void revoke(k, reason)} />
        ))}
      </ul>

      {generated && (
        <div className="tkey-secret" role="alert" data-testid="generated-key">
          <p>
            <strong>Save the private key now.</strong> It is shown this once and is not stored anywhere: the store keeps only the public half (key id <code>{shortId(generated.key.keyid)}</code>).
          </p>
          <pre className="code-block selectable tkey-secret__pem">{generated.privateKeyPem}</pre>
          <div className="row">
            <button type="button" className="primary" onClick={() => downloadText(generated.privateKeyPem, privateKeyFileName(generated.key), 'application/x-pem-file')} data-testid="save-private-key">
              Save {privateKeyFileName(generated.key)}
            </button>
            <button type="button" className="small" onClick={() => void navigator.clipboard?.writeText(generated.privateKeyPem)}>
              Copy
            </button>
            <span className="spacer" />
            <button type="button" className="small" onClick={() => setGenerated(null)}>
              I saved it: hide
            </button>
          </div>
          <p className="muted small">
            Sign with it: <code className="selectable">{signingHint(generated.key)}</code>
          </p>
        </div>
      )}

      <div className="row tkeys__actions">
        <button type="button" className="small" aria-expanded={mode === 'import'} onClick={() => (setMode(mode === 'import' ? 'none' : 'import'), reset())} data-testid="import-key">
          Import public key…
        </button>
        <button type="button" className="small" aria-expanded={mode === 'generate'} onClick={() => (setMode(mode === 'generate' ? 'none' : 'generate'), reset())} data-testid="generate-key">
          Generate pair…
        </button>
        <span className="spacer" />
        <button type="button" className="small" aria-pressed={log !== null} onClick={() => void toggleLog()}>
          Key log
        </button>
      </div>

      {mode !== 'none' && (
        <form className="tkey-form" onSubmit={(e) => void submit(e)} aria-label={mode === 'import' ? 'Import a public key' : 'Generate a key pair'}>
          {mode === 'import' && (
            <>
              <label htmlFor={`${ids}-pem`}>Ed25519 public key: PEM (BEGIN PUBLIC KEY, a .pub from provgate keygen), or its 32 bytes in hex or base64</label>
              <textarea id={`${ids}-pem`} rows={4} value={text} onChange={(e) => setText(e.target.value)} maxLength={MAX_KEY_TEXT} spellCheck={false} className="tkey-form__pem" data-testid="key-text" />
              <div className="row">
                <OpenFileButton label="Open .pub file…" accept=".pub,.pem,.txt" testId="key-file" onFile={(f) => void f.text().then((t) => setText(t.slice(0, MAX_KEY_TEXT + 1)))} />
              </div>
            </>
          )}
          <div className="row">
            <label className="tkey-form__field">
              Key id <input type="text" value={keyid} onChange={(e) => setKeyid(e.target.value)} maxLength={256} placeholder="default: the fingerprint" spellCheck={false} data-testid="key-id" />
            </label>
            <label className="tkey-form__field">
              Label <input type="text" value={label} onChange={(e) => setLabel(e.target.value)} maxLength={120} placeholder="e.g. my laptop" data-testid="key-label" />
            </label>
          </div>
          <p className="muted small">The key id is what the envelopes carry (GATE_KEYID when signing); left empty it is the key&apos;s fingerprint, as the command line derives it.</p>
          <div className="row">
            <button type="submit" className="primary" disabled={busy} data-testid="submit-key">
              {mode === 'import' ? 'Trust this key' : 'Generate and trust'}
            </button>
            <button type="button" onClick={() => (setMode('none'), reset())}>
              Cancel
            </button>
          </div>
          {problem && (
            <div className="field-error" role="alert">
              {problem}
            </div>
          )}
        </form>
      )}
      {error && <ErrorNote error={error} title="The key change was refused" />}

      {log && (
        <div className="tkey-log" data-testid="key-log">
          <p className={log.verified.ok ? 'muted small' : 'neg small'}>
            {log.verified.ok ? `Key log: ${plural(log.verified.count, 'record')}, hash chain intact.` : `Key log chain broken: ${log.verified.reason ?? 'unknown reason'}.`}
          </p>
          {log.items.length === 0 ? (
            <p className="muted small">No key was added or revoked in the app yet.</p>
          ) : (
            <ol className="tkey-log__list">
              {log.items.map((r) => {
                const keyid = String(r.payload['keyid'] ?? '');
                const label = keyLabel(keyid, list?.items ?? []);
                return (
                  <li key={r.seq}>
                    <span className="muted when">{when(r.at)}</span> {r.kind === 'key.add' ? 'added' : 'revoked'} <code title={keyid}>{shortId(keyid)}</code>
                    {label !== null && label !== keyid && ` (${label})`} <span className="muted">by {r.actor}</span>
                  </li>
                );
              })}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
