/**
 * One text, offline: the tagger's mentions typed, cleaned and folded into
 * entities by deterministic rules (same name, company designator, short
 * form, acronym, a name in parentheses), person titles from appositions,
 * and relations from cue patterns. The result is what the graph merges.
 */
import { classifySpan } from './classify.js';
import { acronymLetters, cleanName, hasDesignator, initials, nameKey } from './names.js';
import type { EntityRecognizer, RecognizedText } from './recognizer.js';
import { findRelations, type MentionSpan } from './relations.js';
import type { EntityType, ExtractedEntity, ExtractedRelation, Extraction, MergeRule } from './types.js';

interface TypedMention {
  surface: string;
  type: EntityType;
  start: number;
  end: number;
  sentence: number;
  key: string;
}

interface Group {
  key: string;
  type: EntityType;
  mentions: TypedMention[];
  merges: Array<{ alias: string; rule: MergeRule }>;
}

const EXCHANGE = /^(?:NYSE|NASDAQ|Nasdaq|LSE|TSX|NYSEARCA|AMEX|OTC|ASX|HKEX|SEHK|BSE|NSE|TSE|LON)$/;
const TYPE_PRIORITY: readonly EntityType[] = [
  'organization',
  'person',
  'location',
  'technology',
  'product',
  'event',
  'work',
];

const TITLE_BEFORE =
  /(?:^|\s)((?:(?:former|deputy|vice|senior|executive|interior|defense|defence|foreign|prime|chief|managing|lead|acting|interim)\s+){0,2}(?:CEO|CFO|CTO|COO|Chief Executive|President|Vice President|Prime Minister|Minister|Chancellor|Secretary|Senator|Sen\.|Rep\.|Gov\.|Governor|Mayor|Judge|Dr\.|Prof\.|Professor|General|Gen\.|Coach|coach|Chairman|chairman|founder|co-founder|chief executive|president|spokesperson|spokesman|spokeswoman|analyst|scientist|researcher|economist|director|Director|Ambassador|ambassador|Interior Minister|Defense Secretary|Secretary of State))\s+$/iu;

export function analyzeText(recognizer: EntityRecognizer, text: string): Extraction {
  return analyzeRecognized(text, recognizer.recognize(text));
}

/** The same analysis over mentions any tagger found (the offline recognizer, or a configured model). */
export function analyzeRecognized(text: string, { sentences, mentions }: RecognizedText): Extraction {
  const typed: TypedMention[] = [];
  for (const mention of mentions) {
    // The exchange in "(NASDAQ: MSFT)" is not an entity of the text.
    if (
      EXCHANGE.test(mention.text) &&
      /\(\s*$/.test(text.slice(Math.max(0, mention.start - 2), mention.start)) &&
      /^\s*:/.test(text.slice(mention.end, mention.end + 2))
    )
      continue;
    const quoted = /["“‘']\s*$/.test(text.slice(Math.max(0, mention.start - 2), mention.start));
    const type = classifySpan(mention.type, mention.text, quoted);
    const surface = cleanName(mention.text);
    if (!type || surface.length < 2 || !/\p{L}/u.test(surface)) continue;
    const key = nameKey(type, surface);
    if (!key) continue;
    typed.push({
      surface,
      type,
      start: mention.start,
      end: mention.end,
      sentence: mention.sentence,
      key: `${type}:${key}`,
    });
  }
  const groups = groupMentions(text, typed);
  const byMention = new Map<TypedMention, Group>();
  for (const group of groups.values()) for (const m of group.mentions) byMention.set(m, group);
  const kept = typed.filter((m) => byMention.has(m));

  const sentenceText = (s: number) => {
    const tokens = sentences[s]!;
    return text.slice(tokens[0]!.start, tokens[tokens.length - 1]!.end);
  };
  const entities: ExtractedEntity[] = [...groups.values()].map((group) => {
    const first = group.mentions[0]!;
    const name = canonicalName(group);
    const title = group.type === 'person' ? personTitle(text, group) : undefined;
    const sentenceIds = [...new Set(group.mentions.map((m) => m.sentence))];
    const cooccurring = new Set<string>();
    for (const m of kept)
      if (sentenceIds.includes(m.sentence) && byMention.get(m) !== group && m.type !== 'location')
        cooccurring.add(canonicalName(byMention.get(m)!));
    const snippet = truncate(sentenceText(first.sentence), 280);
    return {
      key: group.key,
      type: group.type,
      name,
      description: describe(text, group, snippet),
      mentions: [...new Set(group.mentions.map((m) => m.surface))],
      merges: group.merges,
      ...(title ? { title } : {}),
      snippet,
      cooccurring: [...cooccurring].slice(0, 20),
    };
  });

  const relations: ExtractedRelation[] = [];
  const seen = new Set<string>();
  sentences.forEach((_, s) => {
    const spans: MentionSpan[] = kept
      .filter((m) => m.sentence === s)
      .map((m) => ({ key: byMention.get(m)!.key, type: byMention.get(m)!.type, start: m.start, end: m.end }))
      .sort((a, b) => a.start - b.start);
    for (const relation of findRelations(text, spans)) {
      const id = `${relation.from}|${relation.type}|${relation.to}`;
      if (seen.has(id)) continue;
      seen.add(id);
      relations.push({ ...relation, evidence: truncate(sentenceText(s), 400) });
    }
  });
  return { entities, relations };
}

function groupMentions(text: string, mentions: TypedMention[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const mention of mentions) {
    let group = groups.get(mention.key);
    if (!group) {
      group = { key: mention.key, type: mention.type, mentions: [], merges: [] };
      groups.set(mention.key, group);
    } else if (
      !group.mentions.some((m) => m.surface === mention.surface) &&
      !group.merges.some((m) => m.alias === mention.surface)
    ) {
      group.merges.push({
        alias: mention.surface,
        rule:
          hasDesignator(mention.surface) || group.mentions.some((m) => hasDesignator(m.surface))
            ? 'designator'
            : 'same-name',
      });
    }
    group.mentions.push(mention);
  }
  const fold = (from: Group, into: Group, rule: MergeRule) => {
    for (const m of from.mentions) {
      m.key = into.key;
      into.mentions.push(m);
      if (!into.merges.some((x) => x.alias === m.surface)) into.merges.push({ alias: m.surface, rule });
    }
    into.merges.push(...from.merges.filter((x) => !into.merges.some((y) => y.alias === x.alias)));
    into.mentions.sort((a, b) => a.start - b.start);
    groups.delete(from.key);
  };
  // One name tagged with two types in one text ("Microsoft" once as a company, once as a product): the type most of its
  // mentions got.
  const byName = new Map<string, Group[]>();
  for (const group of groups.values()) {
    const name = group.key.slice(group.type.length + 1);
    byName.set(name, [...(byName.get(name) ?? []), group]);
  }
  for (const same of byName.values()) {
    if (same.length < 2) continue;
    same.sort(
      (a, b) => b.mentions.length - a.mentions.length || TYPE_PRIORITY.indexOf(a.type) - TYPE_PRIORITY.indexOf(b.type),
    );
    const into = same[0]!;
    for (const other of same.slice(1)) {
      for (const m of other.mentions) m.type = into.type;
      fold(other, into, 'same-name');
    }
  }
  // A name in parentheses right after an organisation: "Pacific Gas & Electric Co. (PG&E)", "Home Depot (ticker: HD)".
  for (const group of [...groups.values()]) {
    if (group.type !== 'organization' || !groups.has(group.key)) continue;
    for (const m of group.mentions) {
      const paren =
        /^\s*\((?:(?:NYSE|NASDAQ|Nasdaq|LSE|TSX|ticker|Ticker|symbol)\s*:\s*)?([\p{Lu}][\p{L}&.]{1,11})\)/u.exec(
          text.slice(m.end, m.end + 40),
        );
      if (!paren) continue;
      const alias = paren[1]!;
      // The exchange in "(NASDAQ: MSFT)" is not an entity of this text.
      const parenEnd = m.end + paren[0].length;
      for (const g of [...groups.values()]) {
        if (g === group) continue;
        g.mentions = g.mentions.filter((x) => !(x.start > m.end && x.end <= parenEnd && x.surface !== alias));
        if (g.mentions.length === 0) groups.delete(g.key);
      }
      const aliasKey = `organization:${nameKey('organization', alias)}`;
      const other = [...groups.values()].find(
        (g) => g !== group && g.mentions.some((x) => x.surface === alias || g.key === aliasKey),
      );
      if (other) fold(other, group, 'parenthetical');
      else if (!group.merges.some((x) => x.alias === alias)) group.merges.push({ alias, rule: 'parenthetical' });
    }
  }
  // Acronyms: "PG&E" for "Pacific Gas & Electric".
  for (const group of [...groups.values()]) {
    if (group.type !== 'organization' || !groups.has(group.key) || group.mentions.length === 0) continue;
    const letters = acronymLetters(group.mentions[0]!.surface);
    if (!letters) continue;
    const targets = [...groups.values()].filter(
      (g) => g !== group && g.type === 'organization' && initials(g.key.slice('organization:'.length)) === letters,
    );
    if (targets.length === 1) fold(group, targets[0]!, 'acronym');
  }
  // Short forms: "Nadella" for "Satya Nadella", "Disney" for "Walt Disney Co.".
  for (const group of [...groups.values()]) {
    if (!groups.has(group.key)) continue;
    const key = group.key.slice(group.type.length + 1);
    if (key.includes(' ')) continue;
    const candidates = [...groups.values()].filter((g) => {
      if (g === group) return false;
      const words = g.key.slice(g.type.length + 1).split(' ');
      if (words.length < 2) return false;
      if (g.type === 'person')
        return words[words.length - 1] === key && (group.type === 'person' || group.type === 'organization');
      if (g.type === 'organization')
        return (words[0] === key || words[words.length - 1] === key) && group.type !== 'location';
      return g.type === group.type && words.includes(key);
    });
    const sameType = candidates.filter((g) => g.type === group.type);
    const target = sameType.length === 1 ? sameType[0] : candidates.length === 1 ? candidates[0] : undefined;
    if (target) fold(group, target, target.type === 'person' ? 'surname' : 'short-form');
  }
  return groups;
}

/** The fullest form: the longest surface (company designator included), ties to the first seen. */
function canonicalName(group: Group): string {
  let best = group.mentions[0]!.surface;
  for (const m of group.mentions) if (m.surface.length > best.length) best = m.surface;
  return best;
}

function personTitle(text: string, group: Group): string | undefined {
  for (const m of group.mentions) {
    const before = TITLE_BEFORE.exec(text.slice(Math.max(0, m.start - 60), m.start));
    if (before) return before[1]!.trim();
    const after = /^,\s*(?:the |a |an )?((?:[\p{L}-]+ ){0,4}?[\p{L}-]+?)(?: (?:of|at|for)\b|,)/u.exec(
      text.slice(m.end, m.end + 80),
    );
    if (
      after &&
      /(?:officer|executive|president|director|founder|chair|head|minister|secretary|governor|mayor|professor|scientist|analyst|engineer|researcher|economist|manager|spokes\w+|editor|reporter|ceo|cto|cfo|coo|lead|partner|strategist|coach|ambassador)$/i.test(
        after[1]!,
      )
    ) {
      return after[1]!.trim();
    }
  }
  return undefined;
}

function describe(text: string, group: Group, snippet: string): string {
  for (const m of group.mentions) {
    const tail = text.slice(m.end, m.end + 120);
    const apposition = /^,\s*((?:the |a |an )?[^,.;()]{3,100}?)(?:,|\.|;)/u.exec(tail);
    if (
      apposition &&
      /\b(?:of|at|for|based|company|firm|group|maker|provider|agency|startup|developer|manufacturer|retailer|chain|platform|service)\b/i.test(
        apposition[1]!,
      )
    ) {
      return apposition[1]!.trim();
    }
  }
  return snippet;
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}
