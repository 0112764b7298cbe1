/**
 * The language-model path, when one is configured: the model splits the
 * claim into facts and judges each candidate sentence's stance toward its
 * fact. It only ever sees sentences retrieved from the pages, so every
 * piece of evidence it cites is still a sentence of a page; a model answer
 * that cannot be read falls back to the rules for that fact.
 */
import { parseModelJson } from '../../../services/llm/json-output.js';
import type { LlmClient } from '../../../services/llm/types.js';
import { analyse } from './analysis.js';
import { cleanClaim, MAX_FACTS, type Fact } from './facts.js';
import type { Candidate } from './retrieval.js';
import type { Stance, StanceJudgement } from './stance-rules.js';

export async function decomposeWithLlm(client: LlmClient, claim: string, signal?: AbortSignal): Promise<Fact[] | null> {
  const response = await client.complete({
    system:
      'You split a factual claim into the separate facts it asserts (entities, numbers, dates, relations), ' +
      'each a short self-contained statement ' +
      `in the claim's own words. At most ${MAX_FACTS} facts. Mark the one fact the claim stands or falls on as central. ` +
      'Answer with JSON: {"facts": [{"text": string, "central": boolean}]}.',
    messages: [{ role: 'user', content: `Claim: ${cleanClaim(claim)}` }],
    json: true,
    temperature: 0,
    maxTokens: 600,
    ...(signal ? { signal } : {}),
  });
  const answer = (response.json !== undefined ? response.json : parseModelJson(response.text)) as {
    facts?: Array<{ text?: unknown; central?: unknown }>;
  };
  const facts = (answer?.facts ?? [])
    .filter((f) => typeof f.text === 'string' && f.text.trim().length > 0)
    .slice(0, MAX_FACTS)
    .map((f) => ({ text: (f.text as string).trim(), central: f.central === true }));
  if (facts.length === 0) return null;
  if (!facts.some((f) => f.central)) facts[0]!.central = true;
  let seenCentral = false;
  return facts.map((f) => {
    const central = f.central && !seenCentral;
    seenCentral ||= central;
    return { text: f.text, central, analysis: analyse(f.text) };
  });
}

const STANCES: Stance[] = ['supports', 'contradicts', 'unrelated'];

/** One call per fact: the model labels every candidate; null when its answer cannot be read. */
export async function judgeWithLlm(
  client: LlmClient,
  fact: Fact,
  candidates: Candidate[],
  signal?: AbortSignal,
): Promise<StanceJudgement[] | null> {
  if (candidates.length === 0) return [];
  const listing = candidates.map((c, i) => `[${i}] ${c.sentence.replace(/\s+/g, ' ')}`).join('\n');
  const response = await client.complete({
    system:
      'You judge evidence for fact-checking. For each numbered sentence, say whether it supports the fact, ' +
      'contradicts it, or is unrelated ' +
      '(on topic but neither confirms nor denies it). Judge only by what the sentence states; hedged or ' +
      'partial statements get a lower strength. ' +
      'Answer with JSON: {"judgements": [{"id": number, "stance": "supports"|"contradicts"|"unrelated", ' +
      '"strength": number between 0 and 1, "reason": string}]}.',
    messages: [{ role: 'user', content: `Fact: ${fact.text}\n\nSentences:\n${listing}` }],
    json: true,
    temperature: 0,
    maxTokens: 1200,
    ...(signal ? { signal } : {}),
  });
  let answer: { judgements?: Array<{ id?: unknown; stance?: unknown; strength?: unknown; reason?: unknown }> };
  try {
    answer = (response.json !== undefined ? response.json : parseModelJson(response.text)) as typeof answer;
  } catch {
    return null;
  }
  if (!answer || !Array.isArray(answer.judgements)) return null;
  const out: StanceJudgement[] = candidates.map(() => ({
    stance: 'unrelated',
    strength: 0,
    reasons: ['not judged by the model'],
  }));
  for (const j of answer.judgements) {
    if (typeof j.id !== 'number' || !Number.isInteger(j.id) || j.id < 0 || j.id >= candidates.length) continue;
    const stance = STANCES.includes(j.stance as Stance) ? (j.stance as Stance) : 'unrelated';
    const strength =
      typeof j.strength === 'number' && Number.isFinite(j.strength)
        ? Math.max(0, Math.min(1, j.strength))
        : stance === 'unrelated'
          ? 0
          : 0.7;
    out[j.id] = {
      stance,
      strength: stance === 'unrelated' ? 0 : strength,
      reasons: [typeof j.reason === 'string' && j.reason ? `model: ${j.reason.slice(0, 200)}` : 'model judgement'],
    };
  }
  return out;
}
