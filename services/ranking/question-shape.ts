/**
 * What kind of answer a question asks for, and whether a sentence has that
 * shape. Read from the question's wording alone, in English:
 *
 *   person      who / whom / whose …            → a name (capitalised words the question lacks)
 *   date        when / what year / which date … → a year, a date or a month
 *   number      how many / how much / what percentage / what was the amount … → a figure
 *   definition  what is / what are <subject>    → "<subject> is a …", "… is defined as …"
 *   open        anything else (what were the reasons, how does …): no shape expected
 *
 * A shape is evidence, not a filter: shapeMatch is 1 when the sentence has the
 * expected shape, 0 when it lacks it, and 0.5 for open questions, so a
 * scorer can weigh it with the rest.
 */
import { contentTokens, tokenize } from './tokens.js';

export type AnswerShape = 'person' | 'date' | 'number' | 'definition' | 'open';

export interface QuestionShape {
  shape: AnswerShape;
  /** For definitions: the content tokens of what is being defined. */
  subject: string[];
}

const PERSON =
  /^\s*(who|whom|whose)\b|\b(which|what) (person|people|individual|author|founder|president|leader|scientist|player|company|organi[sz]ation)\b/i;
const DATE = /^\s*when\b|\b(what|which) (year|date|day|month|decade|century)\b|\bin what year\b/i;
const NUMBER =
  /^\s*how (many|much|long|far|old|large|big|high|often)\b|\b(what|which) (was|is|were|are) the (total|number|amount|value|percentage|ratio|rate|price|cost|sum|change|difference|average|level|size|balance|growth)\b|\b(what|which) (percentage|number|amount|proportion|share|fraction)\b/i;
const DEFINING_QUESTION = /^\s*what (is|are) (an? |the )?([^?,]{1,40}?)\??\s*$/i;

export function questionShape(question: string): QuestionShape {
  if (PERSON.test(question)) return { shape: 'person', subject: [] };
  if (DATE.test(question)) return { shape: 'date', subject: [] };
  if (NUMBER.test(question)) return { shape: 'number', subject: [] };
  const definition = DEFINING_QUESTION.exec(question);
  // "what is the role of X in Y" asks for more than a definition: only short subjects count.
  if (definition && contentTokens(definition[3]!).length <= 3)
    return { shape: 'definition', subject: contentTokens(definition[3]!) };
  return { shape: 'open', subject: [] };
}

const YEAR = /\b(1[0-9]{3}|20[0-9]{2})s?\b/;
const MONTH =
  /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t|tember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b/i;
const FIGURE =
  /(\d[\d,.]*\s*(%|percent|per cent|million|billion|thousand|hundred)?|\$\s?\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen)\b)/i;
/** Tokens (as tokenize() gives them) that say what something is. */
const DEFINING = new Set(['is', 'are', 'was', 'were', 'refer', 'mean', 'defin', 'known', 'consist', 'describ']);

/** Capitalised words not at the sentence's start and not in the question: candidate names. */
function newNames(sentence: string, questionTokens: Set<string>): number {
  const words = sentence.split(/\s+/).slice(1);
  return words.filter((word) => /^[A-Z][\p{Ll}'’-]+/u.test(word) && !tokenize(word).some((t) => questionTokens.has(t)))
    .length;
}

/** 1 when the sentence has the shape the question expects, 0 when not; 0.5 for open questions. */
export function shapeMatch(shape: QuestionShape, question: string, sentence: string): number {
  switch (shape.shape) {
    case 'person':
      return newNames(sentence, new Set(tokenize(question))) > 0 ? 1 : 0;
    case 'date':
      return YEAR.test(sentence) || MONTH.test(sentence) ? 1 : 0;
    case 'number':
      return FIGURE.test(sentence) ? 1 : 0;
    case 'definition': {
      // The subject named, then a defining verb within a few words of it.
      const tokens = tokenize(sentence);
      const at = tokens.findIndex((t) => shape.subject.includes(t));
      return at >= 0 && tokens.slice(at + 1, at + 7).some((t) => DEFINING.has(t)) ? 1 : 0;
    }
    default:
      return 0.5;
  }
}
