/**
 * The task models' worker (services/models), a child process of the tinypool
 * process pool like the embed worker, for the same onnxruntime reason. All
 * model work — download, tokenizer, ONNX — and the entity analysis of the
 * model's tags happen here, never on the event loop. Runs as built JavaScript
 * (dist/workers/models.worker.js).
 */
import {
  AutoModelForSequenceClassification,
  AutoModelForTokenClassification,
  AutoTokenizer,
  Tensor,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import type { ModelSpec } from '../services/embeddings/worker-protocol.js';
import { analyzeRecognized } from '../services/entities/analyze.js';
import { recognizedFromSpans } from '../services/entities/recognizer.js';
import { tagsToSpans } from '../services/entities/spans.js';
import { splitSentences, tokenize } from '../services/entities/tokenize.js';
import type { Extraction } from '../services/entities/types.js';
import { bioTag } from '../services/models/entity-labels.js';
import type { LoadResult, ModelHead, ModelTask, PairsResult } from '../services/models/protocol.js';
import { pointTransformersAt } from './transformers-env.js';

// stdout carries the MCP protocol in the main process; library output goes to stderr.
console.log = console.error;
console.info = console.error;
if (process.send) process.on('disconnect', () => process.exit(0));

/** Longest input in tokens: BERT-family position tables stop at 512. */
const MAX_TOKENS = 512;

interface Loaded {
  key: string;
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  labels: string[];
}

let loaded: Loaded | null = null;

async function modelFor(spec: ModelSpec, head: ModelHead): Promise<Loaded> {
  const key = JSON.stringify([spec, head]);
  if (loaded?.key === key) return loaded;
  if (loaded) await loaded.model.dispose();
  loaded = null;
  pointTransformersAt(spec);
  const options = {
    dtype: 'fp32',
    device: 'cpu',
    session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 },
  } as const;
  const tokenizer = await AutoTokenizer.from_pretrained(spec.model);
  const model = await (head === 'token'
    ? AutoModelForTokenClassification
    : AutoModelForSequenceClassification
  ).from_pretrained(spec.model, options);
  const id2label = ((model.config as unknown as { id2label?: Record<string, string> }).id2label ?? {}) as Record<
    string,
    string
  >;
  const labels = Object.keys(id2label)
    .map(Number)
    .sort((a, b) => a - b)
    .map((id) => id2label[String(id)]!);
  if (labels.length === 0) throw new Error('config.json has no id2label');
  loaded = { key, tokenizer, model, labels };
  return loaded;
}

const int64 = (rows: number[][], width: number) => {
  const data = new BigInt64Array(rows.length * width);
  rows.forEach((row, r) => row.forEach((value, c) => (data[r * width + c] = BigInt(value))));
  return new Tensor('int64', data, [rows.length, width]);
};

/**
 * BIO tags per word: each word is tokenised alone and labelled by its first
 * piece (the usual alignment for word-level tags); words past the model's
 * length limit are outside any entity.
 */
async function tagSentences(
  { tokenizer, model, labels }: Loaded,
  sentences: string[][],
  batchSize: number,
): Promise<string[][]> {
  const specials = tokenizer.encode('');
  // What the tokenizer adds around a text ([CLS] … [SEP], <s> … </s>; a lone marker is a beginning one).
  const [prefix, suffix] = specials.length >= 2 ? [specials.slice(0, 1), specials.slice(1)] : [specials, []];
  const pad = (tokenizer as unknown as { pad_token_id?: number }).pad_token_id ?? 0;
  const pieces = new Map<string, number[]>();
  const piecesOf = (word: string) => {
    let found = pieces.get(word);
    if (!found) pieces.set(word, (found = tokenizer.encode(word, { add_special_tokens: false })));
    return found;
  };
  const tags: string[][] = [];
  for (let start = 0; start < sentences.length; start += batchSize) {
    const batch = sentences.slice(start, start + batchSize);
    const rows: number[][] = [];
    const firsts: Array<Array<number | null>> = [];
    for (const words of batch) {
      const ids = [...prefix];
      const first = words.map((word) => {
        const wordPieces = piecesOf(word);
        if (wordPieces.length === 0 || ids.length + wordPieces.length + suffix.length > MAX_TOKENS) return null;
        ids.push(...wordPieces);
        return ids.length - wordPieces.length;
      });
      rows.push([...ids, ...suffix]);
      firsts.push(first);
    }
    const width = Math.max(...rows.map((r) => r.length));
    const mask = rows.map((r) => Array.from({ length: width }, (_, i) => (i < r.length ? 1 : 0)));
    const padded = rows.map((r) => [...r, ...Array<number>(width - r.length).fill(pad)]);
    const { logits } = (await model({ input_ids: int64(padded, width), attention_mask: int64(mask, width) })) as {
      logits: Tensor;
    };
    const data = logits.data as Float32Array;
    const count = labels.length;
    firsts.forEach((first, b) => {
      tags.push(
        first.map((position) => {
          if (position === null) return 'O';
          const offset = (b * width + position) * count;
          let best = 0;
          for (let l = 1; l < count; l++) if (data[offset + l]! > data[offset + best]!) best = l;
          return bioTag(labels[best]!);
        }),
      );
    });
  }
  return tags;
}

async function entities(spec: ModelSpec, text: string, batchSize: number): Promise<Extraction> {
  const sentences = splitSentences(text, tokenize(text));
  const tags = await tagSentences(
    await modelFor(spec, 'token'),
    sentences.map((tokens) => tokens.map((t) => t.text)),
    batchSize,
  );
  return analyzeRecognized(
    text,
    recognizedFromSpans(
      text,
      sentences,
      tags.map((sentenceTags) => tagsToSpans(sentenceTags)),
    ),
  );
}

async function pairs(spec: ModelSpec, list: Array<[string, string]>): Promise<PairsResult> {
  const { tokenizer, model, labels } = await modelFor(spec, 'pair');
  const inputs = tokenizer(
    list.map(([first]) => first),
    { text_pair: list.map(([, second]) => second), padding: true, truncation: true, max_length: MAX_TOKENS },
  );
  const { logits } = (await model(inputs)) as { logits: Tensor };
  return { labels: labels.length, logits: Float32Array.from(logits.data as Float32Array), pid: process.pid };
}

async function load(spec: ModelSpec, head: ModelHead): Promise<LoadResult> {
  const { labels } = await modelFor(spec, head);
  // A probe, so a model that loads but cannot run fails here rather than on a request.
  if (head === 'token') await tagSentences(loaded!, [['Probe']], 1);
  else await pairs(spec, [['probe', 'probe']]);
  return { labels, pid: process.pid };
}

export default function run(task: ModelTask): Promise<LoadResult | Extraction | PairsResult> {
  switch (task.kind) {
    case 'load':
      return load(task.spec, task.head);
    case 'entities':
      return entities(task.spec, task.text, task.batchSize);
    case 'pairs':
      return pairs(task.spec, task.pairs);
  }
}
