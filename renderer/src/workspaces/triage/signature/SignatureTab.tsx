// The Signature tab: what each Authenticode signature proves about this file (digest, signer's signature, chain, timestamp), and what it does not (no trust store).
import type { TriageCertificate, TriageResult, TriageSignature } from '../../../../../engines/core/contracts/petriage';
import { formatBytes, hex } from '../model';

const STATUS: Record<TriageSignature['status'], { word: string; tone: 'pos' | 'neg' | 'warn'; says: string }> = {
  intact: { word: 'Matches the file', tone: 'pos', says: 'The signed digest is this file’s Authenticode hash and the signer’s signature verifies. Whether the signer is trusted is not decided here: there is no trust store in the workstation.' },
  unverified: { word: 'Matches, partly unverified', tone: 'warn', says: 'The digest matches, but part of the signature uses an algorithm or key this reader cannot check.' },
  digest_mismatch: { word: 'Does not match the file', tone: 'neg', says: 'The signed digest is not this file’s hash: the file was changed after signing, or the signature was copied from another file.' },
  bad_signature: { word: 'Signature broken', tone: 'neg', says: 'The signer’s signature, or a certificate in its chain, does not verify.' },
  unreadable: { word: 'Unreadable', tone: 'neg', says: 'The certificate table holds something that is not a signature this reader can follow.' },
};

const date = (iso: string | null): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '–');
const yesNo = (v: boolean | null, yes: string, no: string): string => (v === null ? 'not checked' : v ? yes : no);

function Cert({ c, role }: { readonly c: TriageCertificate; readonly role: string }) {
  return (
    <tr>
      <td className="muted">{role}</td>
      <td>
        <strong>{c.name}</strong>
        <div className="muted small-print">{c.subject}</div>
      </td>
      <td className="small-print">{c.self_signed ? <span className="muted">self-signed</span> : c.issuer}</td>
      <td className="num small-print">
        {date(c.not_before).slice(0, 10)} → {date(c.not_after).slice(0, 10)}
        {c.valid_at_signing !== null && <div className={c.valid_at_signing ? 'pos' : 'neg'}>{c.valid_at_signing ? 'valid when signed' : 'not valid when signed'}</div>}
      </td>
      <td className="small-print">
        <code className="selectable" title="SHA-1 thumbprint">
          {c.sha1}
        </code>
        <div className="muted">
          serial {c.serial} · {c.signature_algorithm}
        </div>
      </td>
    </tr>
  );
}

function Signature({ s }: { readonly s: TriageSignature }) {
  const st = STATUS[s.status];
  return (
    <section className="panel" aria-label={s.nested ? 'Nested signature' : 'Signature'} data-testid="signature" data-status={s.status}>
      <div className="panel__head">
        <h2>{s.nested ? 'Nested signature' : 'Signature'}</h2>
        <span className={`sigstatus sigstatus--${st.tone}`} data-testid="signature-status">
          {st.word}
        </span>
      </div>
      <p className="muted">{st.says}</p>
      <dl className="facts facts--wide facts--wrap">
        <div>
          <dt>Signer</dt>
          <dd>{s.signer ? s.signer.name : <span className="muted">not in the signature</span>}</dd>
        </div>
        <div>
          <dt>Program</dt>
          <dd>{s.program_name ?? <span className="muted">not given</span>}</dd>
        </div>
        <div>
          <dt>Digest ({s.digest_algorithm ?? '?'})</dt>
          <dd className={s.digest_matches === false ? 'neg' : s.digest_matches ? 'pos' : ''}>{yesNo(s.digest_matches, 'equals the file hash', 'differs from the file hash')}</dd>
        </div>
        <div>
          <dt>Signer’s signature</dt>
          <dd className={s.signature_valid === false ? 'neg' : s.signature_valid ? 'pos' : ''}>{yesNo(s.signature_valid, 'verifies', 'does not verify')}</dd>
        </div>
        <div>
          <dt>Chain</dt>
          <dd>
            {yesNo(s.chain_valid, 'each link verifies', 'a link does not verify')}; {s.chain_complete ? 'ends at a self-signed root' : 'incomplete (the issuer is not in the signature)'}
          </dd>
        </div>
        <div>
          <dt>Timestamp</dt>
          <dd data-testid="signature-timestamp">
            {s.timestamp ? (
              <>
                {date(s.timestamp.time)} <span className="muted">({s.timestamp.kind === 'rfc3161' ? 'RFC 3161' : 'countersignature'}{s.timestamp.signer ? `, ${s.timestamp.signer.name}` : ''}; {yesNo(s.timestamp.imprint_matches, 'stamps this signature', 'stamps another signature')})</span>
              </>
            ) : (
              <span className="muted">none: validity is judged at the claimed signing time{s.signing_time ? ` (${date(s.signing_time)})` : ', which is not given either'}</span>
            )}
          </dd>
        </div>
      </dl>
      <details>
        <summary>Digests</summary>
        <div className="small-print">
          <div>
            signed <code className="selectable">{s.signed_digest ?? '–'}</code>
          </div>
          <div>
            file&nbsp;&nbsp;&nbsp;<code className="selectable">{s.computed_digest ?? '–'}</code>
          </div>
          <div className="muted">The Authenticode hash covers the file except its checksum field, the security directory entry and the certificate table.</div>
        </div>
      </details>
      {s.chain.length > 0 && (
        <table className="dense certs" aria-label="Certificate chain">
          <thead>
            <tr>
              <th />
              <th>Subject</th>
              <th>Issuer</th>
              <th className="num">Valid</th>
              <th>Thumbprint</th>
            </tr>
          </thead>
          <tbody>
            {s.chain.map((c, i) => (
              <Cert key={c.sha1} c={c} role={i === 0 ? 'signer' : i === s.chain.length - 1 && c.self_signed ? 'root' : 'issuer'} />
            ))}
            {s.timestamp?.signer && <Cert c={s.timestamp.signer} role="timestamp" />}
          </tbody>
        </table>
      )}
      {s.warnings.length > 0 && (
        <ul className="warnings-list">
          {s.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SignatureTab({ result }: { readonly result: TriageResult }) {
  const ac = result.authenticode;
  const cert = result.pe.certificate;
  if (!ac || !cert)
    return (
      <section className="panel" aria-label="Signature" data-testid="triage-signature">
        <h2>Not signed</h2>
        <p className="muted">The file has no certificate table (no Authenticode signature). Most malware is unsigned, and so is much legitimate software; a signature proves origin, not intent.</p>
      </section>
    );
  return (
    <div className="ws-column" data-testid="triage-signature">
      <p className="muted small-print">
        Certificate table at {hex(cert.offset)}, {formatBytes(cert.size)}
        {cert.within_file ? '' : ' (runs past the end of the file)'}. {ac.signatures.length} signature{ac.signatures.length === 1 ? '' : 's'}.
      </p>
      {ac.warnings.length > 0 && (
        <ul className="warnings-list" aria-label="Certificate table warnings">
          {ac.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {ac.signatures.map((s, i) => (
        <Signature key={i} s={s} />
      ))}
    </div>
  );
}
