// Envelopes: PAE checked against real DSSE producers (in-toto RSA-PSS, Sigstore ECDSA), both layouts, Ed25519 and HMAC, tampering, unknown keys, malformed entries.
import { constants, createPublicKey, verify as cryptoVerify, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import {
  envelopeToJson,
  isMalformed,
  pae,
  parseEnvelope,
  signEvent,
  SignatureError,
  STAGE_PAYLOAD_TYPE,
  toDsseJson,
  trustedKeyOf,
  verifyEnvelope,
  type Envelope,
  type StageEvent,
  type TrustedKey,
} from './envelope.js';
import { loadEnvelopes, parseEnvelopeList, saveEnvelopes } from './files.js';
import { DEMO_KEYID, DEMO_SIGNING_KEY, demoTrust, generateKeyPair, keygen, publicKeyFromPem, signingKeyFromEnv, signingKeyFromPem, trustedFromEnv, trustedFromJson, trustedToJson } from './keys.js';

const dir = mkdtempSync(path.join(tmpdir(), 'provgate-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const event: StageEvent = { stage: 'scan', runId: 'run-1', payload: { tool: 'trivy', findings: [{ id: 'CVE-2020-14343', package: 'pyyaml', version: '5.3', severity: 'critical', title: 'x' }] } };
const attest = (...parts: string[]): string => corpusPath('supplychain', 'attestations', ...parts);
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as unknown;

describe('PAE', () => {
  it('is the DSSE v1 encoding, with byte lengths', () => {
    const out = new TextDecoder().decode(pae('http://example.com/HelloWorld', new TextEncoder().encode('hello world')));
    expect(out).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
    // Lengths count UTF-8 bytes, not characters: "é" is two bytes.
    expect(new TextDecoder().decode(pae('t', new TextEncoder().encode('é')))).toBe('DSSEv1 1 t 2 é');
  });

  it.skipIf(!hasCorpora())('reproduces the bytes in-toto signed: the DSSE link signatures verify with RSA-PSS keys from the demo layout', () => {
    const layout = readJson(attest('in-toto', 'demo.layout.template')) as { signed: { keys: Record<string, { keyval: { public: string } }> } };
    for (const file of ['write-code.776a00e2.link', 'package.2f89b927.link']) {
      const env = parseEnvelope(readJson(attest('in-toto', 'dsse', file)));
      expect(env.layout).toBe('dsse');
      expect(env.payloadType).toBe('application/vnd.in-toto+json');
      const sig = env.signatures[0];
      const pem = layout.signed.keys[sig?.keyid ?? '']?.keyval.public;
      expect(pem).toBeDefined();
      const key = { key: createPublicKey(pem as string), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO };
      expect(cryptoVerify('sha256', pae(env.payloadType, env.payload), key, sig?.sig as Uint8Array)).toBe(true);
      // One changed byte of the payload and the same signature no longer verifies.
      const tampered = new Uint8Array(env.payload);
      tampered[10] = (tampered[10] ?? 0) ^ 1;
      expect(cryptoVerify('sha256', pae(env.payloadType, tampered), key, sig?.sig as Uint8Array)).toBe(false);
      const statement = JSON.parse(new TextDecoder().decode(env.payload)) as { _type: string };
      expect(statement._type).toBe('link');
    }
  });

  it.skipIf(!hasCorpora())('reproduces the bytes a Sigstore signer signed: the SLSA provenance envelope verifies with its certificate key', () => {
    const raw = readJson(attest('slsa-verifier', 'binary-linux-amd64-e2e-builder-repo.intoto.jsonl')) as { signatures: { cert: string }[] };
    const env = parseEnvelope(raw);
    const cert = new X509Certificate(raw.signatures[0]?.cert ?? '');
    expect(cryptoVerify('sha256', pae(env.payloadType, env.payload), cert.publicKey, env.signatures[0]?.sig as Uint8Array)).toBe(true);
    const statement = JSON.parse(new TextDecoder().decode(env.payload)) as { _type: string; predicateType: string; subject: unknown[] };
    expect(statement).toMatchObject({ _type: 'https://in-toto.io/Statement/v0.1', predicateType: 'https://slsa.dev/provenance/v0.2' });
    expect(statement.subject).toHaveLength(1);
  });
});

describe('signing and verification', () => {
  const ed = signingKeyFromPem(generateKeyPair().privatePem, 'ci');
  const trustEd = new Map([trustedKeyOf(ed)]);

  it('Ed25519 and HMAC round trips, in both layouts, through JSON', () => {
    for (const [key, trusted] of [
      [ed, trustEd],
      [DEMO_SIGNING_KEY, demoTrust()],
    ] as const) {
      for (const layout of ['dsse', 'gate'] as const) {
        const env = signEvent(event, key, layout);
        const json = JSON.parse(JSON.stringify(envelopeToJson(env))) as unknown;
        const back = parseEnvelope(json);
        expect(back.layout).toBe(layout);
        expect(verifyEnvelope(back, trusted)).toEqual(event);
      }
    }
    // The two layouts carry the same signature over the same PAE.
    const a = signEvent(event, ed, 'gate');
    const b = parseEnvelope(toDsseJson(a));
    expect(verifyEnvelope(b, trustEd)).toEqual(event);
    expect(Buffer.from(b.signatures[0]?.sig ?? []).toString('hex')).toBe((envelopeToJson(a) as { sig: string }).sig);
  });

  it('rejects a tampered payload, a changed payload type, an unknown key, a wrong key of the same id, and no signature', () => {
    const env = signEvent(event, ed);
    const bytes = new Uint8Array(env.payload);
    const text = new TextDecoder().decode(bytes).replace('"critical"', '"low"');
    const tampered: Envelope = { ...env, payload: new TextEncoder().encode(text) };
    expect(() => verifyEnvelope(tampered, trustEd)).toThrow('signature mismatch');
    expect(() => verifyEnvelope({ ...env, payloadType: 'application/vnd.in-toto+json' }, trustEd)).toThrow('unexpected payload type');
    expect(() => verifyEnvelope(env, demoTrust())).toThrow('untrusted key');
    const other = signingKeyFromPem(generateKeyPair().privatePem, 'ci');
    expect(() => verifyEnvelope(env, new Map([trustedKeyOf(other)]))).toThrow('signature mismatch');
    expect(() => verifyEnvelope({ ...env, signatures: [] }, trustEd)).toThrow('no signature');
    // An HMAC envelope checked against an Ed25519 key of the same id fails closed.
    const hmac = signEvent(event, { ...DEMO_SIGNING_KEY, keyid: 'ci' });
    expect(() => verifyEnvelope(hmac, trustEd)).toThrow(SignatureError);
    // A valid trusted signature plus one by an unknown key is accepted; a bad trusted one beside a good one is not.
    const cosigned: Envelope = { ...env, signatures: [...env.signatures, { keyid: 'stranger', sig: new Uint8Array(64) }] };
    expect(verifyEnvelope(cosigned, trustEd)).toEqual(event);
    const badTwin: Envelope = { ...env, signatures: [...env.signatures, { keyid: 'ci', sig: new Uint8Array(64) }] };
    expect(() => verifyEnvelope(badTwin, trustEd)).toThrow('signature mismatch');
  });

  it('rejects a signed payload that is not a stage event', () => {
    const junk = signEvent({ stage: '', runId: 'r', payload: {} }, ed);
    expect(() => verifyEnvelope(junk, trustEd)).toThrow('no stage');
  });

  it.skipIf(!hasCorpora())('the real in-toto and SLSA envelopes parse as DSSE and are rejected by the gate (foreign payload type, untrusted keys)', () => {
    const files = [
      attest('in-toto', 'dsse', 'write-code.776a00e2.link'),
      attest('in-toto', 'dsse', 'package.2f89b927.link'),
      attest('slsa-verifier', 'binary-linux-amd64-e2e-builder-repo.intoto.jsonl'),
      attest('slsa-verifier', 'binary-linux-amd64-expired-cert.intoto.jsonl'),
      attest('slsa-verifier', 'gke-gce-pre.bcid-vsa.jsonl'),
    ];
    for (const file of files) {
      const env = parseEnvelope(readJson(file));
      expect(env.signatures).toHaveLength(1);
      expect(() => verifyEnvelope(env, trustEd)).toThrow('unexpected payload type');
    }
    // A Sigstore bundle holds its envelope under dsseEnvelope: the bundle itself is not an envelope.
    const bundle = readJson(attest('slsa-verifier', 'bcr-MODULE.bazel.intoto.jsonl')) as { dsseEnvelope: unknown };
    expect(() => parseEnvelope(bundle)).toThrow(SignatureError);
    expect(parseEnvelope(bundle.dsseEnvelope).payloadType).toBe('application/vnd.in-toto+json');
    // Classic in-toto metadata ({signed, signatures}) is not a DSSE envelope either.
    expect(() => parseEnvelope(readJson(attest('in-toto', 'write-code.776a00e2.link')))).toThrow(SignatureError);
  });
});

describe('malformed envelopes', () => {
  const good = envelopeToJson(signEvent(event, DEMO_SIGNING_KEY));
  const secret = 'Zq9-secret-value';
  const bad: [unknown, string][] = [
    [null, ''],
    [[good], ''],
    [{ ...good, payloadType: 42 }, 'payloadType'],
    [{ ...good, payload: `!!${secret}!!` }, 'payload'],
    [{ ...good, signatures: 'x' }, 'signatures'],
    [{ ...good, signatures: [{ keyid: 'k', sig: `${secret}!` }] }, 'signatures[0].sig'],
    [{ ...good, signatures: [{ keyid: `bad key ${secret}`, sig: 'AAAA' }] }, 'signatures[0].keyid'],
    [{ payloadType: STAGE_PAYLOAD_TYPE, payload: '{}' }, ''],
    [{ payloadType: STAGE_PAYLOAD_TYPE, payload: '{}', keyid: 'k', sig: 'xyz' }, 'sig'],
    [{ payloadType: STAGE_PAYLOAD_TYPE, payload: '{}', keyid: 'k', sig: 'abcd', signatures: [] }, ''],
  ];

  it('each gets a SignatureError naming the field, never the value', () => {
    for (const [value, field] of bad) {
      let caught: unknown;
      try {
        parseEnvelope(value, '[3]');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(SignatureError);
      const e = caught as SignatureError;
      expect(e.code).toBe('validation_failed');
      expect(e.details?.[0]?.path).toBe(field === '' ? '[3]' : `[3].${field}`);
      expect(JSON.stringify({ m: e.message, d: e.details })).not.toContain(secret);
    }
  });

  it('a DSSE payload of megabytes is read (base64 checked without a stack frame per group), and padding is checked as before', () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 0x61);
    const env = parseEnvelope({ payloadType: STAGE_PAYLOAD_TYPE, payload: big.toString('base64'), signatures: [{ keyid: 'k', sig: 'AAAA' }] });
    expect(env.payload.length).toBe(big.length);
    for (const payload of ['QUFB', 'QUE=', 'QQ==', '']) expect(parseEnvelope({ payloadType: STAGE_PAYLOAD_TYPE, payload, signatures: [{ keyid: 'k', sig: 'AAAA' }] }).layout).toBe('dsse');
    for (const payload of ['QUFB=', 'Q===', 'QU=E', '====', 'QUF+/']) expect(() => parseEnvelope({ payloadType: STAGE_PAYLOAD_TYPE, payload, signatures: [{ keyid: 'k', sig: 'AAAA' }] })).toThrow(SignatureError);
  });

  it('load_envelopes strict raises on a malformed entry or a non-list file; lenient keeps a placeholder', () => {
    const file = path.join(dir, 'mixed.json');
    writeFileSync(file, JSON.stringify([good, { payloadType: 'x' }, good]));
    expect(() => loadEnvelopes(file)).toThrow(SignatureError);
    const lenient = loadEnvelopes(file, true);
    expect(lenient).toHaveLength(3);
    expect(lenient.map(isMalformed)).toEqual([false, true, false]);
    expect(lenient[1]).toMatchObject({ malformed: true, index: 1 });
    const obj = path.join(dir, 'object.json');
    writeFileSync(obj, JSON.stringify(good));
    expect(() => loadEnvelopes(obj)).toThrow(SignatureError);
    expect(() => loadEnvelopes(obj, true)).toThrow(SignatureError);
    const notJson = path.join(dir, 'broken.json');
    writeFileSync(notJson, '[{"payloadType": ');
    expect(() => loadEnvelopes(notJson, true)).toThrow('not valid JSON');
    const missing = path.join(dir, 'nope.json');
    expect(() => loadEnvelopes(missing)).toThrow('cannot be read');
    expect(() => parseEnvelopeList({})).toThrow('list');
  });

  it('save_envelopes then load_envelopes gives back what was signed, in each layout', () => {
    const envs = [signEvent(event, DEMO_SIGNING_KEY, 'gate'), signEvent({ ...event, stage: 'build' }, DEMO_SIGNING_KEY, 'dsse')];
    const file = path.join(dir, 'saved.json');
    saveEnvelopes(envs, file);
    const back = loadEnvelopes(file);
    expect(back.map((e) => (isMalformed(e) ? 'bad' : e.layout))).toEqual(['gate', 'dsse']);
    for (const e of back) if (!isMalformed(e)) expect(verifyEnvelope(e, demoTrust()).runId).toBe('run-1');
  });
});

describe('keys', () => {
  it('keygen writes an Ed25519 PEM pair (private key 0600, never overwritten) whose halves match', () => {
    const prefix = path.join(dir, 'ci');
    const { keyid, privateFile, publicFile } = keygen(prefix);
    expect(statSync(privateFile).mode & 0o777).toBe(0o600);
    const privatePem = readFileSync(privateFile, 'utf8');
    const publicPem = readFileSync(publicFile, 'utf8');
    expect(privatePem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(publicPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(Buffer.from(publicKeyFromPem(privatePem)).equals(Buffer.from(publicKeyFromPem(publicPem)))).toBe(true);
    expect(keyid).toMatch(/^[0-9a-f]{64}$/);
    expect(() => keygen(prefix)).toThrow('already exists');
  });

  it('GATE_SIGNING_KEY / GATE_PUBKEY / GATE_KEYID: paths or PEM text; the demo key signs when no key is set; nothing is trusted by default', () => {
    const prefix = path.join(dir, 'env');
    const { keyid } = keygen(prefix);
    expect(signingKeyFromEnv({})).toBe(DEMO_SIGNING_KEY);
    expect(trustedFromEnv({}).size).toBe(0);
    const signer = signingKeyFromEnv({ GATE_SIGNING_KEY: `${prefix}.key` });
    expect(signer.keyid).toBe(keyid);
    const trusted = trustedFromEnv({ GATE_PUBKEY: readFileSync(`${prefix}.pub`, 'utf8') });
    expect(verifyEnvelope(signEvent(event, signer), trusted)).toEqual(event);
    const named = signingKeyFromEnv({ GATE_SIGNING_KEY: `${prefix}.key`, GATE_KEYID: 'ci' });
    const trustedNamed = trustedFromEnv({ GATE_PUBKEY: `${prefix}.pub`, GATE_KEYID: 'ci' });
    expect([...trustedNamed.keys()]).toEqual(['ci']);
    expect(verifyEnvelope(signEvent(event, named), trustedNamed)).toEqual(event);
    // Errors name the variable, never the path or the key.
    const missing = path.join(dir, 'no-such.key');
    expect(() => signingKeyFromEnv({ GATE_SIGNING_KEY: missing })).toThrow(/GATE_SIGNING_KEY file cannot be read$/);
    expect(() => trustedFromEnv({ GATE_PUBKEY: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n' })).toThrow('not a readable PEM key');
    const rsa = readJson(attest('in-toto', 'demo.layout.template')) as { signed: { keys: Record<string, { keyval: { public: string } }> } };
    const rsaPem = Object.values(rsa.signed.keys)[0]?.keyval.public ?? '';
    if (hasCorpora()) expect(() => trustedFromEnv({ GATE_PUBKEY: rsaPem })).toThrow('not an Ed25519 key');
  });

  it('trusted keys survive JSON (for the worker boundary)', () => {
    const map = new Map<string, TrustedKey>([trustedKeyOf(signingKeyFromPem(generateKeyPair().privatePem, 'a')), [DEMO_KEYID, { type: 'hmac', secret: new Uint8Array([1, 2, 3]) }]]);
    const back = trustedFromJson(JSON.parse(JSON.stringify(trustedToJson(map))) as ReturnType<typeof trustedToJson>);
    expect(back).toEqual(map);
  });
});
