/**
 * A corpus's chunk rows as an Arrow table, built column by column. LanceDB
 * turns plain row objects into Arrow one value at a time (every float of
 * every vector through a builder): for the 400 chunks of one large addition
 * that was half a second on the event loop. Here each column is one typed
 * array, and the vectors one Float32Array.
 */
import {
  type Data,
  type FixedSizeList,
  makeData,
  makeVector,
  RecordBatch,
  Struct,
  Table,
  vectorFromArray,
  type Schema,
} from 'apache-arrow';
import { chunksSchema } from './schema.js';

export interface ChunkRow {
  source_id: string;
  chunk_index: number;
  text: string;
  start: number;
  end: number;
  tokens: number;
  url: string;
  title: string;
  vector: ArrayLike<number>;
}

export function chunkRowsTable(rows: ChunkRow[], dimensions: number): Table {
  const schema: Schema = chunksSchema(dimensions);
  const vectorType = schema.fields.find((field) => field.name === 'vector')!.type as FixedSizeList;
  const floats = new Float32Array(rows.length * dimensions);
  rows.forEach((row, i) => floats.set(row.vector, i * dimensions));
  const strings = (name: 'source_id' | 'text' | 'url' | 'title') =>
    vectorFromArray(
      rows.map((row) => row[name]),
      schema.fields.find((f) => f.name === name)!.type,
    ).data[0]!;
  const ints = (name: 'chunk_index' | 'start' | 'end' | 'tokens') =>
    makeVector(Int32Array.from(rows, (row) => row[name])).data[0]!;
  const columns: Record<string, Data> = {
    source_id: strings('source_id'),
    chunk_index: ints('chunk_index'),
    text: strings('text'),
    start: ints('start'),
    end: ints('end'),
    tokens: ints('tokens'),
    url: strings('url'),
    title: strings('title'),
    vector: makeData({
      type: vectorType,
      length: rows.length,
      nullCount: 0,
      child: makeData({ type: vectorType.valueType, length: floats.length, data: floats }),
    }),
  };
  const data = makeData({
    type: new Struct(schema.fields),
    length: rows.length,
    nullCount: 0,
    children: schema.fields.map((field) => columns[field.name]!),
  });
  return new Table([new RecordBatch(schema, data)]);
}
