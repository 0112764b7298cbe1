/**
 * A token-classification model's labels (config.json id2label) read as the
 * entity tagger's BIO tags over PER, ORG, LOC and MISC. Models name types in
 * several ways ("B-PER", "I-person", "B-GPE", bare "ORG" in IO schemes);
 * anything else is outside an entity.
 */
import type { SpanType } from '../entities/spans.js';

const TYPE_NAMES: Record<string, SpanType> = {
  PER: 'PER',
  PERSON: 'PER',
  ORG: 'ORG',
  ORGANIZATION: 'ORG',
  ORGANISATION: 'ORG',
  LOC: 'LOC',
  LOCATION: 'LOC',
  GPE: 'LOC',
  MISC: 'MISC',
};

/** "B-PER" → "B-PER", "I-person" → "I-PER", "ORG" → "I-ORG" (inside, as IO schemes mean), "O" or unknown → "O". */
export function bioTag(label: string): string {
  const match = /^(?:([BIES])[-_])?([A-Za-z]+)$/.exec(label.trim());
  const type = match ? TYPE_NAMES[match[2]!.toUpperCase()] : undefined;
  if (!match || !type) return 'O';
  const prefix = match[1]?.toUpperCase();
  return `${prefix === 'B' || prefix === 'S' ? 'B' : 'I'}-${type}`;
}

/** Why these labels cannot tag entities, or null when at least one maps to a type. */
export function entityLabelProblem(labels: readonly string[]): string | null {
  return labels.some((label) => bioTag(label) !== 'O')
    ? null
    : `its labels (${labels.slice(0, 8).join(', ')}) name no PER, ORG, LOC or MISC entities`;
}
