/**
 * The offline entity pipeline's pure parts on real text: tokens, name keys,
 * the organisation rules, cue-pattern relations, in-text resolution, and
 * the shipped model's quality on the wikigold test split (in the repository)
 * so a feature change without retraining cannot go unnoticed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wikigoldTest } from '../../bench/ner/datasets.js';
import { count, emptyCounts, score } from '../../bench/ner/score.js';
import { analyzeText } from './analyze.js';
import { aliasKeys, cleanName, nameKey } from './names.js';
import { EntityRecognizer } from './recognizer.js';
import { tagsToSpans } from './spans.js';
import { splitSentences, tokenize } from './tokenize.js';

const recognizer = EntityRecognizer.load();
const pages = JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/knowledge/salesforce-three-pages.json'), 'utf8')).pages as Array<{ text: string }>;

describe('tokens and names', () => {
  it('splits clitics, keeps abbreviations, hyphenated names and domains whole', () => {
    const words = tokenize('Toyota’s U.S. unit, Bautista-Agut and Salesforce.com Inc. met Mr. Cook. AT&T didn’t.').map((t) => t.text);
    expect(words).toEqual(['Toyota', '’s', 'U.S.', 'unit', ',', 'Bautista-Agut', 'and', 'Salesforce.com', 'Inc.', 'met', 'Mr.', 'Cook', '.', 'AT&T', 'did', 'n’t', '.']);
    const text = 'Dr. Paganini spoke. The U.S. agency agreed.\nNew line here';
    expect(splitSentences(text, tokenize(text)).map((s) => s.map((t) => t.text).join(' '))).toEqual(['Dr. Paganini spoke .', 'The U.S. agency agreed .', 'New line here']);
  });

  it('keys names so designators, possessives, case and accents meet', () => {
    expect(nameKey('organization', 'Microsoft Corp.')).toBe('microsoft');
    expect(nameKey('organization', 'Salesforce.com, Inc')).toBe('salesforce');
    expect(nameKey('organization', 'The Walt Disney Company')).toBe('walt disney');
    expect(nameKey('person', 'Dr. Rosaly Lopes')).toBe('rosaly lopes');
    expect(nameKey('location', 'Bogotá')).toBe('bogota');
    expect(cleanName('“Toyota’s')).toBe('Toyota');
    expect(cleanName('Walt Disney Co.')).toBe('Walt Disney Co.');
    expect(aliasKeys('organization', ['Pacific Gas & Electric Co.'])).toEqual(
      expect.arrayContaining(['organization:pacific gas & electric', 'organization~acronym:pge', 'organization~word:pacific', 'organization~word:electric']),
    );
    expect(aliasKeys('person', ['Satya Nadella'])).toEqual(['person:satya nadella', 'person~surname:nadella']);
  });
});

describe('offline analysis of real text', () => {
  it('folds a ticker in parentheses into its company (The Motley Fool, WCXB 0046)', () => {
    const { entities } = analyzeText(recognizer, pages[0]!.text);
    const salesforce = entities.find((e) => e.name === 'Salesforce')!;
    expect(salesforce.type).toBe('organization');
    expect(salesforce.merges).toContainEqual({ alias: 'CRM', rule: 'parenthetical' });
    expect(entities.some((e) => e.name === 'NYSE')).toBe(false);
  });

  it('reads a company named by its domain with a designator after it (Wikipedia list, WCXB 2904)', () => {
    const { entities } = analyzeText(recognizer, pages[2]!.text);
    expect(entities.find((e) => e.name === 'Salesforce.com, Inc')?.type).toBe('organization');
  });

  it('finds people, surnames and relations in a news opening (CRN, Zyte benchmark)', () => {
    const { entities, relations } = analyzeText(recognizer, pages[1]!.text);
    const cook = entities.find((e) => e.name === 'Tim Cook')!;
    expect(cook.mentions).toEqual(['Tim Cook', 'Cook']);
    expect(cook.merges).toEqual([{ alias: 'Cook', rule: 'surname' }]);
    expect(cook.title).toBe('CEO');
    const benioff = entities.find((e) => e.name === 'Marc Benioff')!;
    const salesforce = entities.find((e) => e.name === 'Salesforce')!;
    expect(relations).toContainEqual(expect.objectContaining({ from: benioff.key, to: salesforce.key, type: 'founded' }));
  });

  it('recognises cue patterns of each kind', () => {
    const cases: Array<[string, string, string, string]> = [
      ['Lucas Paganini, a planetary scientist at NASA, led the study.', 'person:lucas paganini', 'works_for', 'organization:nasa'],
      ['Dataminr acquires ThreatConnect in a cash deal.', 'organization:dataminr', 'acquired', 'organization:threatconnect'],
      ['The company is headquartered in Fairfield, New Jersey.', 'location:fairfield', 'part_of', 'location:new jersey'],
    ];
    for (const [text, from, type, to] of cases) expect(analyzeText(recognizer, text).relations, text).toContainEqual(expect.objectContaining({ from, type, to }));
  });
});

describe('the shipped model', () => {
  it('keeps its measured quality on the wikigold test split (58.6 micro-F1 when trained)', () => {
    const counts = emptyCounts();
    for (const doc of wikigoldTest()) {
      const predicted = recognizer.tagWords(doc.map((s) => s.words));
      doc.forEach((sentence, i) => count(counts, tagsToSpans(sentence.tags), predicted[i]!));
    }
    expect(score(counts).f1).toBeGreaterThan(0.56);
  });
});
