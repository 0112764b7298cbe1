/**
 * Two documented screens (docs/agent.md, "Safety"):
 *
 * - screenQuery: a query that tries to instruct the service's model (prompt
 *   injection) or asks for clearly harmful help (weapons capable of mass
 *   casualties, sexual content involving minors, malware to attack others).
 *   With check_safety on, a match is refused with UNSAFE_QUERY naming the reason.
 * - screenText: page text holding instructions aimed at an AI agent. Such text
 *   is flagged on its result and its sentences are never quoted in answers or
 *   handed to a model as instructions.
 *
 * Both are pattern lists: cheap, predictable and explainable, not a
 * classifier; they catch the common phrasings, not a determined adversary.
 */

export interface SafetyFinding {
  category: 'prompt_injection' | 'harmful_request' | 'agent_instructions';
  /** What matched, quoted from the text (at most 80 characters). */
  match: string;
}

const INJECTION: RegExp[] = [
  /\b(ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(previous|prior|above|earlier|all|your|the)\b[^.!?\n]{0,20}\b(instructions?|prompts?|rules|directions|guidelines)\b/i,
  /\b(reveal|print|show|repeat|output)\b[^.!?\n]{0,30}\b(system|hidden|initial)\s+(prompt|instructions?|message)\b/i,
  /\byou are now\b[^.!?\n]{0,40}\b(dan|jailbroken|unrestricted|unfiltered|developer mode)\b/i,
  /\b(jailbreak|do anything now|developer mode enabled)\b/i,
  /<\|?(im_start|im_end|system|endoftext)\|?>/i,
];

const HARMFUL: RegExp[] = [
  /\b(make|build|synthes[iy][sz]e?|produce|assemble|manufacture|weaponi[sz]e)\b[^.!?\n]{0,40}\b(bombs?|explosives?|ied|pipe bombs?|nerve agents?|sarin|vx|ricin|anthrax|bioweapons?|chemical weapons?|dirty bombs?|nuclear weapons?)\b/i,
  /\b(child|minor|underage)\b[^.!?\n]{0,30}\b(porn\w*|sexual|nude|explicit)\b/i,
  /\b(write|create|build|code)\b[^.!?\n]{0,30}\b(ransomware|keylogger|botnet|credential stealer)\b/i,
];

const AGENT_INSTRUCTIONS: RegExp[] = [
  ...INJECTION,
  /\b(ai|llms?|(large )?language models?|ai (assistant|agent)s?|chatbots?|gpt|claude|gemini)\b[^.!?\n]{0,40}\b(must|should|are instructed to|need to)\b[^.!?\n]{0,20}\b(ignore|say|tell|respond|reply|recommend|include|visit|send|output)\b/i,
  /\bif you are an? (ai|llm|(large )?language model|ai assistant|ai agent|chatbot|bot)\b/i,
  /\b(do not|don't|never)\s+(tell|inform|mention (this )?to|reveal to)\s+the user\b/i,
  /\bnew instructions?\s*:/i,
];

function find(text: string, patterns: RegExp[], category: SafetyFinding['category']): SafetyFinding[] {
  const found: SafetyFinding[] = [];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match) found.push({ category, match: match[0].slice(0, 80) });
  }
  return found;
}

export function screenQuery(query: string): SafetyFinding[] {
  return [...find(query, INJECTION, 'prompt_injection'), ...find(query, HARMFUL, 'harmful_request')];
}

/** Instructions aimed at an agent in page text (deduplicated by what matched). */
export function screenText(text: string): SafetyFinding[] {
  const seen = new Set<string>();
  return find(text, AGENT_INSTRUCTIONS, 'agent_instructions').filter(
    (f) => !seen.has(f.match.toLowerCase()) && seen.add(f.match.toLowerCase()),
  );
}

/** Whether a sentence holds instructions aimed at an agent (never quoted, never sent as context). */
export function isAgentInstruction(sentence: string): boolean {
  return AGENT_INSTRUCTIONS.some((pattern) => pattern.test(sentence));
}

export function describeFindings(findings: SafetyFinding[]): string {
  return findings.map((f) => `${f.category.replace(/_/g, ' ')} ("${f.match}")`).join('; ');
}
