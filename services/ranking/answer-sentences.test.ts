import { describe, expect, it } from 'vitest';
import { SPEECH, WIKI, sentenceWith } from './fixtures/real-texts.js';
import { repeatsQuestion, scoreAnswerSentences } from './answer-sentences.js';
import { questionFocus } from './question-focus.js';
import { contentTerms } from './tokens.js';

async function scores(question: string, sentences: string[]): Promise<number[]> {
  return scoreAnswerSentences(
    questionFocus(question, [SPEECH, WIKI]),
    sentences.map((text) => ({ text, title: '', context: text })),
    { embedder: null },
  );
}

describe('scoreAnswerSentences', () => {
  it('ranks the sentence holding the figure asked for above ones that share the words but do not answer', async () => {
    const question = 'How many new manufacturing jobs have been created in America?';
    const answer = sentenceWith(SPEECH, 'Eight hundred thousand new manufacturing jobs');
    const others = [
      sentenceWith(SPEECH, 'manufacturing capital of the world'),
      sentenceWith(SPEECH, 'Fifteen million new jobs'),
    ];
    const [a, ...rest] = await scores(question, [answer, ...others]);
    for (const other of rest) expect(a!).toBeGreaterThan(other!);
  });

  it('ranks the named composer above a sentence about the same game that names none', async () => {
    const question = 'Who composed the music for Valkyria Chronicles III?';
    const [answer, other] = await scores(question, [
      sentenceWith(WIKI, 'composer Hitoshi Sakimoto'),
      sentenceWith(WIKI, 'The game began development in 2010'),
    ]);
    expect(answer!).toBeGreaterThan(other!);
  });

  it('halves a sentence that only repeats the question', async () => {
    const question = 'How much are credit card late fees being cut?';
    const answer = sentenceWith(SPEECH, 'cutting credit card late fees from $32 to $8');
    const [a, echo] = await scores(question, [answer, 'Are credit card late fees being cut, and how much?']);
    expect(a!).toBeGreaterThan(2 * echo! - 0.05);
    expect(repeatsQuestion(new Set(contentTerms(question)), 'Are credit card late fees being cut, and how much?')).toBe(
      true,
    );
    expect(repeatsQuestion(new Set(contentTerms(question)), answer)).toBe(false);
  });

  it('scores every sentence in 0..1 and nothing for no sentences', async () => {
    for (const s of await scores('heat pump install cost', [
      sentenceWith(SPEECH, 'junk fees'),
      sentenceWith(WIKI, 'Media.Vision'),
    ])) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
    expect(await scores('anything', [])).toEqual([]);
  });

  it('lets a configured cross-encoder order the best sentences, their scores kept on the same scale', async () => {
    const question = 'Who composed the music for Valkyria Chronicles III?';
    const texts = [
      sentenceWith(WIKI, 'composer Hitoshi Sakimoto'),
      sentenceWith(WIKI, 'The game began development in 2010'),
    ];
    const sentences = texts.map((text) => ({ text, title: '', context: text }));
    const focus = questionFocus(question, [SPEECH, WIKI]);
    const offline = await scoreAnswerSentences(focus, sentences, { embedder: null });
    // A model that prefers the sentence the offline scorer ranks second.
    const reranker = {
      id: 'test/reverse',
      topK: 10,
      score: async (_q: string, passages: string[]) => passages.map((p) => (p === texts[1] ? 0.9 : 0.1)),
    };
    const reranked = await scoreAnswerSentences(focus, sentences, { embedder: null, reranker });
    expect(offline[0]!).toBeGreaterThan(offline[1]!);
    expect(reranked[1]!).toBeGreaterThan(reranked[0]!);
    expect([...reranked].sort()).toEqual([...offline].sort());
  });
});
