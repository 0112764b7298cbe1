import { describe, expect, it } from 'vitest';
import { SPEECH, WIKI, sentenceWith } from './fixtures/real-texts.js';
import { questionShape, shapeMatch } from './question-shape.js';

describe('questionShape', () => {
  it('reads the answer shape from the question wording', () => {
    expect(questionShape('Who composed the music for Valkyria Chronicles III?').shape).toBe('person');
    expect(questionShape('When was Valkyria Chronicles III released in Japan?').shape).toBe('date');
    expect(questionShape('In what year did the game begin development?').shape).toBe('date');
    expect(questionShape('How many new manufacturing jobs have been created in America?').shape).toBe('number');
    expect(questionShape('What was the total amount of dividends paid in 2013?').shape).toBe('number');
    expect(questionShape('What is a heat pump?')).toEqual({ shape: 'definition', subject: ['heat', 'pump'] });
    // A long "what is" asks for more than a definition; "what were the reasons" has no shape.
    expect(questionShape('What is the role of the spacer in the V(D)J recombination process?').shape).toBe('open');
    expect(questionShape('What were the reasons given for the new rules?').shape).toBe('open');
  });
});

describe('shapeMatch', () => {
  it('finds a figure for how-many questions, in the sentence that has one', () => {
    const question = 'How many new manufacturing jobs have been created in America?';
    const shape = questionShape(question);
    expect(shapeMatch(shape, question, sentenceWith(SPEECH, 'Eight hundred thousand new manufacturing jobs'))).toBe(1);
    expect(shapeMatch(shape, question, sentenceWith(SPEECH, 'manufacturing capital of the world'))).toBe(0);
  });

  it('finds a name the question lacks for who-questions, and a year for when-questions', () => {
    const who = 'Who composed the music for Valkyria Chronicles III?';
    expect(shapeMatch(questionShape(who), who, sentenceWith(WIKI, 'composer Hitoshi Sakimoto'))).toBe(1);
    expect(shapeMatch(questionShape(who), who, sentenceWith(WIKI, 'A large team of writers handled the script'))).toBe(
      0,
    );
    const when = 'When was Valkyria Chronicles III released in Japan?';
    expect(shapeMatch(questionShape(when), when, sentenceWith(WIKI, 'Released in January 2011 in Japan'))).toBe(1);
    expect(
      shapeMatch(questionShape(when), when, sentenceWith(WIKI, 'was praised by both Japanese and western critics')),
    ).toBe(0);
  });

  it('is neutral for open questions', () => {
    const question = 'What were the reasons given for the new rules?';
    expect(shapeMatch(questionShape(question), question, 'Any sentence at all.')).toBe(0.5);
  });
});
