/**
 * One reply's bytes from JSON pieces (core/frozen-json.ts: text, and the
 * remembered UTF-8 of a cached answer's frozen parts), carved from a shared
 * slab the way Node pools its small buffers. A cached search's reply (~5 kB)
 * is past the size Node pools, so each would cost an ArrayBuffer of its own,
 * allocated and later freed by the collector; carving costs one per slab.
 *
 * A slab is only ever appended to: a reply's bytes are never handed out
 * again, and a slab is freed once every reply carved from it is.
 */
const SLAB_BYTES = 128 * 1024;
/** Larger replies get their own buffer: one would fill a slab on its own. */
const MAX_CARVED_BYTES = 16 * 1024;

let slab = Buffer.allocUnsafeSlow(0);
let slabUsed = 0;

function carve(bytes: number): Buffer {
  if (bytes > MAX_CARVED_BYTES) return Buffer.allocUnsafe(bytes);
  if (slabUsed + bytes > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + bytes);
  slabUsed += bytes;
  return out;
}

/** The pieces' bytes in order, in one buffer: text as UTF-8, bytes as they are. */
export function joinReply(pieces: ReadonlyArray<string | Buffer>): Buffer {
  let bytes = 0;
  for (const piece of pieces) bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  const out = carve(bytes);
  let at = 0;
  for (const piece of pieces) at += typeof piece === 'string' ? out.write(piece, at) : piece.copy(out, at);
  return out;
}
