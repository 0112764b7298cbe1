/**
 * Embedding worker for the tinypool process pool (services/embeddings/process-pool.ts).
 * All model work (download, tokenizer, ONNX) happens here so the event loop
 * never waits on it. Runs as built JavaScript (dist/workers/embed.worker.js).
 */
import { pipeline, type FeatureExtractionPipeline, type PretrainedModelOptions } from '@huggingface/transformers';
import type { EmbedResult, EmbedTask, LoadResult, ModelSpec } from '../services/embeddings/worker-protocol.js';
import { pointTransformersAt } from './transformers-env.js';

// stdout carries the MCP protocol in the main process and worker output is merged into it, so
// anything a library prints goes to stderr instead.
console.log = console.error;
console.info = console.error;
// Run as a child process (services/embeddings/process-pool.ts): exit with the parent rather than linger.
if (process.send) process.on('disconnect', () => process.exit(0));

// pipeline()'s overloads make TypeScript give up ("union type too complex"); this is the one used.
const featureExtraction = pipeline as unknown as (
  task: 'feature-extraction',
  model: string,
  options: PretrainedModelOptions,
) => Promise<FeatureExtractionPipeline>;

let loaded: { key: string; extractor: FeatureExtractionPipeline } | null = null;

async function extractorFor(spec: ModelSpec): Promise<FeatureExtractionPipeline> {
  const key = JSON.stringify(spec);
  if (loaded?.key === key) return loaded.extractor;
  if (loaded) await loaded.extractor.dispose();
  loaded = null;
  pointTransformersAt(spec);
  // One ONNX thread per worker: parallelism comes from the number of workers, and nested
  // thread pools would oversubscribe the cores.
  const extractor = await featureExtraction('feature-extraction', spec.model, {
    dtype: 'fp32',
    device: 'cpu',
    session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 },
  });
  loaded = { key, extractor };
  return extractor;
}

async function embed(spec: ModelSpec, texts: string[]): Promise<EmbedResult> {
  const extractor = await extractorFor(spec);
  const output = await extractor(texts, { pooling: 'mean', normalize: true });
  const dimensions = output.dims[output.dims.length - 1] ?? 0;
  const data = Float32Array.from(output.data as Float32Array);
  // A text with no tokens (empty, or only what the tokenizer drops) pools to 0/0 = NaN; the
  // contract is a unit vector, so it gets a fixed one that is equally far from everything.
  for (let row = 0; row < texts.length; row++) {
    if (Number.isNaN(data[row * dimensions])) {
      data.fill(0, row * dimensions, (row + 1) * dimensions);
      data[row * dimensions] = 1;
    }
  }
  return { dimensions, data };
}

async function load(spec: ModelSpec): Promise<LoadResult> {
  const probe = await embed(spec, ['dimension probe']);
  return { dimensions: probe.dimensions };
}

export default function run(task: EmbedTask): Promise<LoadResult | EmbedResult> {
  return task.kind === 'load' ? load(task.spec) : embed(task.spec, task.texts);
}
