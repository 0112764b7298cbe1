/**
 * Points transformers.js at one model spec. Its `env` is global to the worker process, so every
 * load sets all of it and a previous spec cannot leak in; the embed and task-model workers share it.
 */
import { env } from '@huggingface/transformers';
import type { ModelSpec } from '../services/embeddings/worker-protocol.js';

export function pointTransformersAt(spec: ModelSpec): void {
  env.allowLocalModels = spec.localModelPath !== null || !spec.allowRemote;
  // A path that never exists keeps a hub id from being looked up as a local folder.
  env.localModelPath = spec.localModelPath ?? '/nonexistent-quarry-models/';
  env.allowRemoteModels = spec.allowRemote;
  env.remoteHost = spec.remoteHost;
  env.remotePathTemplate = '{model}/resolve/{revision}/';
  env.useFSCache = spec.cacheDir !== null;
  if (spec.cacheDir !== null) env.cacheDir = spec.cacheDir;
}
