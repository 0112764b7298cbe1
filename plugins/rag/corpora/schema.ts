/**
 * The tables of the corpus store (one LanceDB database under dataDir/corpora):
 *
 *   corpora              one row per corpus: its id and its record as JSON
 *   <corpus_id>_sources  the corpus's sources, full text included
 *   <corpus_id>_chunks   their chunks: text, offsets, embedding
 *
 * Each corpus has its own tables so that deleting one drops its files, and an
 * ANN index serves one corpus without a filter in front of it.
 */
import { Field, FixedSizeList, Float32, Float64, Int32, Int64, Schema, Utf8 } from 'apache-arrow';

export const RECORDS_TABLE = 'corpora';

export const sourcesTable = (corpusId: string) => `${corpusId}_sources`;
export const chunksTable = (corpusId: string) => `${corpusId}_chunks`;

export const CORPUS_ID = /^corpus_[a-f0-9]{16,64}$/;
export const SOURCE_ID = /^src_[a-f0-9]{8,64}$/;

export function recordsSchema(): Schema {
  return new Schema([
    new Field('corpus_id', new Utf8(), false),
    new Field('record', new Utf8(), false),
    new Field('updated_at', new Int64(), false),
  ]);
}

export function sourcesSchema(): Schema {
  return new Schema([
    new Field('source_id', new Utf8(), false),
    new Field('url', new Utf8(), false),
    new Field('title', new Utf8(), false),
    new Field('content', new Utf8(), false),
    new Field('summary', new Utf8(), false),
    new Field('word_count', new Int32(), false),
    new Field('engine', new Utf8(), false),
    new Field('scraped_at', new Utf8(), false),
    new Field('relevance_score', new Float64(), false),
    new Field('query', new Utf8(), false),
    new Field('chunk_count', new Int32(), false),
  ]);
}

export function chunksSchema(dimensions: number): Schema {
  return new Schema([
    new Field('source_id', new Utf8(), false),
    new Field('chunk_index', new Int32(), false),
    new Field('text', new Utf8(), false),
    new Field('start', new Int32(), false),
    new Field('end', new Int32(), false),
    new Field('tokens', new Int32(), false),
    new Field('url', new Utf8(), false),
    new Field('title', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
}
