/**
 * Word tokens with character offsets, and sentences, for the entity tagger.
 * Possessive and negation clitics split off ("Toyota’s" → "Toyota", "’s"),
 * dotted abbreviations stay whole ("U.S.", "Inc.", "Calif."), hyphenated and
 * ampersand names stay whole ("Bautista-Agut", "AT&T").
 */
/** Whether a word starts with a capital letter (any script's). */
export const isCapitalised = (word: string | undefined): boolean => word !== undefined && /^\p{Lu}/u.test(word);

export interface Token {
  text: string;
  start: number;
  end: number;
}

const TOKEN = new RegExp(
  [
    String.raw`https?:\/\/[^\s<>"]+`,
    String.raw`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}`,
    String.raw`(?:\p{L}\.){2,}`,
    String.raw`\p{N}+(?:[.,:/]\p{N}+)+`,
    String.raw`[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+|[-&][\p{L}\p{M}\p{N}]+|\.(?:com|org|net|info|io|ai|gov|edu)\b)*`,
    String.raw`\S`,
  ].join('|'),
  'gu',
);

const CLITIC = /^(.+?)(['’](?:s|S|re|ve|ll|d|m|t))$/;
const NEGATION = /^(.+?)(n['’]t)$/i;

/** Abbreviations whose trailing period belongs to the word. */
const ABBREVIATIONS = new Set(
  (
    'Mr Mrs Ms Dr Prof Sr Jr St Mt Ft Gen Col Capt Lt Sgt Adm Gov Sen Rep Rev Hon Pres Inc Corp Co Ltd Bros ' +
    'No Nos vs etc ' +
    'Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Ala Ariz Ark Calif Colo Conn Del Fla Ga Ill Ind Kan Ky ' +
    'La Md Mass Mich Minn ' +
    'Miss Mo Mont Neb Nev Okla Ore Pa Tenn Tex Va Vt Wash Wis Wyo Ave Blvd Dept Univ Assn'
  ).split(' '),
);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let consumed = 0;
  for (const match of text.matchAll(TOKEN)) {
    // An abbreviation's period was taken with the word before it.
    if (match.index < consumed) continue;
    let word = match[0];
    let start = match.index;
    const clitic = NEGATION.exec(word) ?? CLITIC.exec(word);
    if (clitic && clitic[1] && clitic[2] && !/^O['’]/.test(word)) {
      tokens.push({ text: clitic[1], start, end: start + clitic[1].length });
      start += clitic[1].length;
      word = clitic[2];
    }
    let end = start + word.length;
    if (ABBREVIATIONS.has(word) && text[end] === '.') {
      word += '.';
      end += 1;
    }
    tokens.push({ text: word, start, end });
    consumed = end;
  }
  return tokens;
}

const SENTENCE_END = new Set(['.', '!', '?']);

/** Splits tokens into sentences: at line breaks, and after . ! ? when the next token starts a new sentence. */
export function splitSentences(text: string, tokens: Token[]): Token[][] {
  const sentences: Token[][] = [];
  let current: Token[] = [];
  const flush = () => {
    if (current.length > 0) sentences.push(current);
    current = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const previous = current[current.length - 1];
    if (previous && text.slice(previous.end, token.start).includes('\n')) flush();
    current.push(token);
    const next = tokens[i + 1];
    if (SENTENCE_END.has(token.text) && next && /^[\p{Lu}\p{N}"“'‘(]/u.test(next.text)) flush();
  }
  flush();
  return sentences;
}
