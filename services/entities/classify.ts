/**
 * Types for the tagger's spans: PER, ORG and LOC map to person, organization
 * and location; a MISC span becomes an event, a work, a technology or a
 * product by its words and context, or is dropped (nationalities,
 * languages: "American", "Chinese").
 */
import type { SpanType } from './spans.js';
import type { EntityType } from './types.js';

const EVENT =
  /\b(?:Conference|Summit|Festival|Championships?|Cup|Games|Olympics|War|Election|Awards?|Expo|Show|Week|Forum|Congress|Finals?|Tournament|Open|Grand Prix|Marathon|Fair|Symposium|Hackathon|Summit|Revolution|Crisis|Pandemic|Day)\b/;
const WORK =
  /\b(?:Act|Report|Book|Album|Film|Movie|Series|Season|Novel|Paper|Journal|Review|Bill|Treaty|Agreement|Accord|Manifesto|Song|Podcast)\b/;
const TECHNOLOGY =
  /\b(?:AI|API|APIs|SDK|Protocol|Language|Framework|Cloud|Kubernetes|Docker|Linux|Python|Java|JavaScript|TypeScript|Rust|Go|C\+\+|SQL|PostgreSQL|Redis|GPT[-\w]*|LLMs?|Bluetooth|Wi-?Fi|5G|4G|LTE|USB(?:-C)?|HTML5?|CSS|HTTP|TCP|IP|Blockchain|Ethereum|Bitcoin|Unicode|UTF-8|Git|Android|iOS|Windows|macOS|Chromium|WebAssembly|React|Node\.js|TensorFlow|PyTorch|CRISPR|mRNA|Lidar|Quantum)\b/;
export const DEMONYM = /^(?:\p{Lu}\p{Ll}+(?:an|ian|ean|ese|ish|ch|i|ic|s))$/u;

export function classifySpan(type: SpanType, text: string, quoted: boolean): EntityType | null {
  if (type === 'PER') return 'person';
  if (type === 'ORG') return 'organization';
  if (type === 'LOC') return 'location';
  if (!/\p{Lu}/u.test(text)) return null;
  if (TECHNOLOGY.test(text)) return 'technology';
  if (EVENT.test(text)) return 'event';
  if (quoted || WORK.test(text)) return 'work';
  if (!text.includes(' ') && DEMONYM.test(text)) return null;
  return 'product';
}
