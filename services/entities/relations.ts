/**
 * Offline relation extraction: two entities in one sentence, and the words
 * between them matched against cue patterns. Each rule names the types it
 * joins, the relation and its direction (→ first to second, ← second to
 * first). The table is the documentation (docs/knowledge.md lists it).
 */
import type { EntityType, RelationType } from './types.js';

export interface RelationRule {
  first: readonly EntityType[];
  second: readonly EntityType[];
  type: RelationType;
  direction: '→' | '←';
  /** Matched against the text between the two mentions (already trimmed of the mentions). */
  between: RegExp;
  /** What the rule recognises, for the docs. */
  example: string;
}

const ROLE = String.raw`(?:chief executive(?: officer)?|ceo|co-ceo|president|chair(?:man|woman|person)?|head|leader|director|managing director|boss|chief [a-z]+ officer|c[a-z]o)`;
const FOUNDER = String.raw`(?:co-?)?founder`;
const ACQUIRE = String.raw`(?:acquired|acquires|acquiring|bought|buys|buying|purchased|purchases|to acquire|to buy|will acquire|agreed to (?:acquire|buy)|completed (?:its|the) acquisition of|takeover of|acquisition of)`;
const MAKE = String.raw`(?:developed|develops|developing|created|creates|built|builds|launched|launches|released|releases|unveiled|unveils|introduced|introduces|makes|made|designed|designs|ships|announced)`;
const PERSON = ['person'] as const;
const ORG = ['organization'] as const;
const THING = ['product', 'technology', 'work'] as const;
const PLACE = ['location'] as const;
/** The tagger sometimes types a company as a product (MISC); company-to-company cues accept both. */
const ORG_LIKE = ['organization', 'product'] as const;

export const RELATION_RULES: readonly RelationRule[] = [
  {
    first: PERSON,
    second: ORG,
    type: 'founded',
    direction: '→',
    between: new RegExp(
      String.raw`^,?\s*(?:the |a |an )?(?:[\w-]+ ){0,2}?${FOUNDER}(?: and [\w-]+)? of (?:the )?$|^(?:who )?(?:co-?)?founded (?:the )?$`,
      'i',
    ),
    example: 'Marc Benioff, founder of Salesforce; Jobs founded Apple',
  },
  {
    first: PERSON,
    second: ORG,
    type: 'leads',
    direction: '→',
    between: new RegExp(
      String.raw`^,?\s*(?:the |a |an |its |who is (?:the )?)?(?:[\w-]+ ){0,3}?${ROLE} (?:of|at) (?:the )?$|^(?:who )?(?:leads|led|heads|headed|runs|ran|chairs) (?:the )?$`,
      'i',
    ),
    example: 'Satya Nadella, chief executive of Microsoft; Cook runs Apple',
  },
  {
    first: PERSON,
    second: ORG,
    type: 'works_for',
    direction: '→',
    between:
      /^,?\s*(?:who |a |an |the )?(?:works|worked|working) (?:for|at) (?:the )?$|^(?:joined|has joined|will join) (?:the )?$|^,\s*(?:a |an |the )?(?:[\w-]+ ){1,4}?(?:at|of|with|for) (?:the )?$/i,
    example: 'Lucas Paganini, a planetary scientist at NASA; she joined Google',
  },
  {
    first: ORG_LIKE,
    second: PERSON,
    type: 'founded',
    direction: '←',
    between: new RegExp(
      String.raw`^(?:['’]s )?(?:[\w-]+ ){0,1}?${FOUNDER}(?: and [\w-]+)?,? $|^,?\s*(?:which was |that was |was )?(?:co-?)?founded by $`,
      'i',
    ),
    example: 'Salesforce founder Marc Benioff; WeWork, founded by Adam Neumann',
  },
  {
    first: ORG_LIKE,
    second: PERSON,
    type: 'leads',
    direction: '←',
    between: new RegExp(
      String.raw`^(?:['’]s )?(?:[\w-]+ ){0,2}?${ROLE},? $|^,?\s*(?:which is |is )?(?:led|headed|run|chaired) by $`,
      'i',
    ),
    example: "Apple CEO Tim Cook; Microsoft's chief executive, Satya Nadella",
  },
  {
    first: ORG,
    second: PERSON,
    type: 'works_for',
    direction: '←',
    between:
      /^(?:['’]s )?(?:[\w-]+ ){0,2}?(?:spokesperson|spokesman|spokeswoman|analyst|engineer|researcher|scientist|economist|professor|executive|reporter|correspondent|editor|employee|manager|strategist|official),? $|^(?:hired|employs|appointed|named) $/i,
    example: 'NASA planetary scientist Lucas Paganini; Google hired Jane Doe',
  },
  {
    first: ORG,
    second: ORG_LIKE,
    type: 'acquired',
    direction: '→',
    between: new RegExp(String.raw`^(?:has |had |is |was )?${ACQUIRE} (?:the |rival |startup )?$`, 'i'),
    example: 'Dataminr acquires ThreatConnect',
  },
  {
    first: ORG,
    second: ORG,
    type: 'acquired',
    direction: '←',
    between:
      /^,?\s*(?:which |that )?(?:was |is |has been |were )?(?:acquired|bought|purchased|taken over) by (?:the )?$/i,
    example: 'Hipcricket, acquired by Augme Technologies',
  },
  {
    first: ORG,
    second: ORG_LIKE,
    type: 'partnered_with',
    direction: '→',
    between:
      /^(?:has |have |is |are )?(?:partnered|partners|partnering|teamed up|teams up|joined forces|collaborates|collaborated|signed a (?:deal|partnership|agreement)) with (?:the )?$|^['’]s partnership with (?:the )?$|^(?:'s )?(?:partnership|alliance|joint venture) with (?:the )?$/i,
    example: 'GE partnered with Ascom',
  },
  {
    first: ORG,
    second: ORG_LIKE,
    type: 'invested_in',
    direction: '→',
    between:
      /^(?:has |have )?(?:invested|invests|investing)(?: [\w$.,-]+){0,4}? in (?:the )?$|^(?:has |have )?(?:led|joined) (?:a|an|the)(?: [\w$.,-]+){0,4}? (?:round|investment) in (?:the )?$|^(?:took|takes|bought|holds) a(?: [\w-]+){0,2} stake in (?:the )?$/i,
    example: 'SoftBank invested $1.5 billion in WeWork',
  },
  {
    first: ORG,
    second: ORG,
    type: 'invested_in',
    direction: '←',
    between: /^,?\s*(?:which is |is )?(?:backed|funded) by (?:the )?$/i,
    example: 'WeWork, backed by SoftBank',
  },
  {
    first: ORG,
    second: ORG_LIKE,
    type: 'competes_with',
    direction: '→',
    between:
      /^(?:competes|competing|compete|competed) (?:with|against) (?:the )?$|^(?:['’]s )?(?:rival|rivals|competitor|competitors)(?: of| to)?,? $|^,?\s*(?:a |the )?(?:rival|competitor) (?:of|to) $/i,
    example: 'Home Depot rival Lowe’s',
  },
  {
    first: ORG,
    second: ORG,
    type: 'part_of',
    direction: '→',
    between:
      /^,?\s*(?:a |the |which is a )?(?:subsidiary|unit|division|part|arm|branch|member) of (?:the )?$|^['’]s parent(?: company)?,? $/i,
    example: "YouTube, a subsidiary of Google; GateHouse's parent, New Media Investment Group",
  },
  {
    first: ORG,
    second: ORG,
    type: 'part_of',
    direction: '←',
    between: /^,?\s*(?:the )?parent(?: company)? of (?:the )?$|^(?:['’]s )?(?:subsidiary|unit|division),? $/i,
    example: 'New Media Investment Group, the parent of GateHouse',
  },
  {
    first: [...ORG, ...PERSON],
    second: THING,
    type: 'developed',
    direction: '→',
    between: new RegExp(
      String.raw`^['’]s (?:new )?$|^(?:has |have |is |was )?${MAKE} (?:the |its |their |his |her |a |an )?(?:new )?$`,
      'i',
    ),
    example: "Google's Stadia; Volkswagen unveiled the ID. Buzz",
  },
  {
    first: THING,
    second: [...ORG, ...PERSON],
    type: 'developed',
    direction: '←',
    between:
      /^,?\s*(?:which was |that was |was |is )?(?:developed|created|built|made|designed|released|launched|written|directed) by (?:the )?$|^,?\s*from $/i,
    example: 'Red Dead Redemption 2, developed by Rockstar',
  },
  {
    first: [...ORG, 'event'],
    second: PLACE,
    type: 'located_in',
    direction: '→',
    between:
      /^,?\s*(?:which is |is |are |was )?(?:based|headquartered|located|registered) in (?:the )?$|^['’]s headquarters in $|^(?:headquarters|offices) in $/i,
    example: 'WeWork is headquartered in New York City',
  },
  {
    first: PLACE,
    second: PLACE,
    type: 'part_of',
    direction: '→',
    between: /^, $/,
    example: 'Fairfield, New Jersey; Greenbelt, Maryland',
  },
];

export interface MentionSpan {
  /** The entity key the mention belongs to. */
  key: string;
  type: EntityType;
  start: number;
  end: number;
}

export interface FoundRelation {
  from: string;
  to: string;
  type: RelationType;
  cue: string;
}

const MAX_GAP = 80;

/** Relations among the mentions of one sentence (given in text order). */
export function findRelations(text: string, mentions: readonly MentionSpan[]): FoundRelation[] {
  const found: FoundRelation[] = [];
  for (let i = 0; i < mentions.length; i++) {
    const first = mentions[i]!;
    for (let j = i + 1; j < mentions.length; j++) {
      const second = mentions[j]!;
      if (second.start - first.end > MAX_GAP) break;
      if (first.key === second.key) continue;
      const raw = text.slice(first.end, second.start);
      const between = raw
        .replace(/\s+/g, ' ')
        .replace(/^[)\]]/, '')
        .replace(/^ /, '');
      for (const rule of RELATION_RULES) {
        if (!rule.first.includes(first.type) || !rule.second.includes(second.type) || !rule.between.test(between))
          continue;
        if (rule.first === PLACE && rule.second === PLACE && !placeHierarchy(text, first, second)) continue;
        const [from, to] = rule.direction === '→' ? [first.key, second.key] : [second.key, first.key];
        found.push({ from, to, type: rule.type, cue: between.trim() || "'s" });
        break;
      }
    }
  }
  return found;
}

/** "Greenbelt, Maryland" is a hierarchy; "France, Germany and Italy" is a list. */
function placeHierarchy(text: string, first: MentionSpan, second: MentionSpan): boolean {
  const after = text.slice(second.end, second.end + 12);
  const before = text.slice(Math.max(0, first.start - 3), first.start);
  return !/^\s*(?:,\s*\p{Lu}|and\b|or\b)/u.test(after) && !/,\s*$/.test(before);
}
