/**
 * Word lists the stance rules read (docs/verify.md, "Stance rules"). Words
 * are compared after services/ranking's stem(), so one entry covers its
 * inflections ("rises", "rising", "rose" needs its own entry: irregular).
 */
import { stem } from '../../../services/ranking/tokens.js';

function stems(words: string): Set<string> {
  return new Set(
    words
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => stem(w.toLowerCase())),
  );
}

/** Words that negate the statement they are in. */
export const NEGATORS = stems(
  'not no never none nobody nothing neither nor cannot without lack lacks lacked fail fails failed ' +
    "isn't aren't wasn't weren't doesn't don't didn't hasn't haven't hadn't won't can't couldn't shouldn't wouldn't",
);
/** The contracted negation as the tokenizer sees it ("isn't" → "isn" + "t"). */
export const NEGATED_AUXILIARIES = new Set([
  'isn',
  'aren',
  'wasn',
  'weren',
  'doesn',
  'don',
  'didn',
  'hasn',
  'haven',
  'hadn',
  'won',
  'couldn',
  'shouldn',
  'wouldn',
  'can',
]);

/** Direction of change or comparison: a fact saying "up" is contradicted by evidence saying only "down" or "flat". */
export const DIRECTION = {
  up: stems(
    'increase increasing rise rises rising rose risen grow grows growing grew grown gain climb soar surge ' +
      'expand accelerate ' +
      'higher more greater larger bigger warm warmer warming hotter heat heating boost raise exceed ' +
      'strengthen intensify ' +
      'up upward growth spike spread',
  ),
  down: stems(
    'decrease decreasing decline declining fall falls falling fell fallen drop shrink shrank lose losing ' +
      'lost loss reduce reduction ' +
      'contract slow slower slowdown lower less fewer smaller cool cooler cooling colder weaken diminish ' +
      'plunge dip down downward retreat thin thinner',
  ),
  flat: stems(
    'stable steady flat unchanged level leveled levelled plateau pause paused hiatus stop stopped stall ' +
      'stalled halt halted constant',
  ),
} as const;

/** Pairs of opposites outside the direction words; either order. */
export const ANTONYMS: Array<[string, string]> = (
  [
    ['true', 'false'],
    ['support', 'oppose'],
    ['agree', 'disagree'],
    ['accept', 'reject'],
    ['confirm', 'refute'],
    ['safe', 'dangerous'],
    ['safe', 'harmful'],
    ['natural', 'anthropogenic'],
    ['natural', 'artificial'],
    ['benefit', 'harm'],
    ['beneficial', 'harmful'],
    ['possible', 'impossible'],
    ['majority', 'minority'],
    ['most', 'few'],
    ['all', 'none'],
    ['always', 'never'],
    ['success', 'failure'],
    ['succeed', 'fail'],
    ['win', 'lose'],
    ['legal', 'illegal'],
    ['alive', 'dead'],
    ['positive', 'negative'],
    ['strong', 'weak'],
    ['high', 'low'],
    ['large', 'small'],
    ['fast', 'slow'],
    ['rich', 'poor'],
    ['wet', 'dry'],
    ['ban', 'allow'],
    ['ban', 'permit'],
    ['real', 'fake'],
    ['proven', 'unproven'],
    ['certain', 'uncertain'],
    ['consensus', 'disagreement'],
    ['significant', 'insignificant'],
    ['abundant', 'scarce'],
    ['cause', 'prevent'],
    ['first', 'last'],
    ['include', 'exclude'],
    ['effective', 'ineffective'],
    ['efficient', 'inefficient'],
  ] as Array<[string, string]>
).map(([a, b]) => [stem(a), stem(b)]);

/** Words by which a sentence calls a statement false. */
export const FALSITY_MARKERS = stems(
  'myth hoax false falsely debunk debunked misconception misleading incorrect wrong untrue baseless ' +
    'unfounded disproved disproven ' +
    'refuted refute fabricated fake misinformation disinformation conspiracy erroneous discredited',
);

/** Words that weaken what a sentence asserts. */
export const HEDGES = stems(
  'may might could possibly perhaps suggest suggests suggested likely unlikely uncertain unclear appear ' +
    'appears seem seems ' +
    'estimate estimated potentially speculate speculative hypothesis hypothesize debate debated ' +
    'controversial disputed claim claims claimed alleged allegedly',
);

/** Words that introduce a qualification of what precedes or follows. */
export const CONTRAST_MARKERS = stems(
  'however but although though despite whereas yet nevertheless nonetheless only except',
);

/** Words of reported speech and generic discourse: they carry no content of the fact. */
export const LIGHT_WORDS = stems(
  'say says said according report reports reported state states stated also would one two new many much even ' +
    'well still like ' +
    'just such may might could can will shall must make made way thing things time times year years people ' +
    'percent per cent',
);
