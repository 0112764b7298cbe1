/**
 * A token-classification model as the entity tagger's TokenClassifier: the whole text goes to the worker, which tags
 * and analyses it.
 */
import { AppError } from '../../core/errors.js';
import type { TokenClassifier } from '../entities/token-classifier.js';
import type { Extraction } from '../entities/types.js';
import type { ModelHost } from './model-host.js';

export function tokenClassifierOf(host: ModelHost, batchSize: number): TokenClassifier {
  return {
    id: host.info.name,
    extract: (text, signal) => {
      if (signal?.aborted) return Promise.reject(new AppError('CANCELLED', 'entity tagging cancelled'));
      return host.run<Extraction>({ kind: 'entities', spec: host.spec, text, batchSize });
    },
  };
}
