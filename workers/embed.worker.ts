/**
 * Embedding worker for the tinypool process pool (services/embeddings/process-pool.ts).
 * All model work (download, tokenizer, ONNX) happens here so the event loop
 * never waits on it. Runs as built JavaScript (dist/workers/embed.worker.js).
 */
import { pipeline, type FeatureExtractionPipeline, type PretrainedModelOptions } from '@huggingface/transformers';
import type { EmbedResult, EmbedTask, LoadResult, ModelSpec } from '../services/embeddings/worker-protocol.js';
import { pointTransformersAt } from './transformers-env.js';
import { meanPoolNormalized } from '../services/embeddings/mean-pool.js';

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

/** The parts of a tensor read here. */
interface TensorLike {
  data: ArrayLike<number | bigint>;
  dims: number[];
}

async function embed(spec: ModelSpec, texts: string[]): Promise<EmbedResult> {
  const extractor = await extractorFor(spec);
  // The pipeline's own steps (tokenizer with padding and truncation, then the model), pooled here: mean-pool.ts says
  // why.
  const inputs = extractor.tokenizer(texts, { padding: true, truncation: true }) as { attention_mask: TensorLike };
  const outputs = (await extractor.model(inputs)) as Record<string, TensorLike | undefined>;
  const hidden = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
  if (hidden?.dims.length !== 3) throw new Error('the embedding model did not answer token vectors');
  const [batch = 0, tokens = 0, dimensions = 0] = hidden.dims;
  const data = meanPoolNormalized(hidden.data as ArrayLike<number>, inputs.attention_mask.data, [
    batch,
    tokens,
    dimensions,
  ]);
  return { dimensions, data };
}

async function load(spec: ModelSpec): Promise<LoadResult> {
  const probe = await embed(spec, ['dimension probe']);
  return { dimensions: probe.dimensions };
}

export default function run(task: EmbedTask): Promise<LoadResult | EmbedResult> {
  return task.kind === 'load' ? load(task.spec) : embed(task.spec, task.texts);
}
