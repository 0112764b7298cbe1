import { describe, expect, it } from 'vitest';
import { loadPage } from '../../test/fixtures/pages/load-page.js';
import { toIsoDate } from './dates.js';
import { authorFromByline, readMetadata } from './metadata.js';
import { parseDocument } from './parse-document.js';

function metadataOf(fixture: string, url: string) {
  return readMetadata(parseDocument(loadPage(fixture)), new URL(url));
}

describe('readMetadata on real pages', () => {
  it('spacenews: JSON-LD @graph, author found through its @id, keywords, og:*', () => {
    const metadata = metadataOf(
      'zyte-spacenews-clps.html.gz',
      'https://spacenews.com/nasa-adds-five-companies-to-commercial-lunar-lander-program/',
    );
    expect(metadata.author).toBe('Jeff Foust');
    expect(metadata.publishedDate).toBe('2019-11-19T04:50:22.000Z');
    expect(metadata.keywords).toEqual([
      'Blue Origin',
      'Ceres Robotics',
      'CLPS',
      'lunar lander',
      'Sierra Nevada Corp.',
      'SpaceX',
      'Tyvak',
    ]);
    expect(metadata.description).toBe(
      'NASA announced Nov. 18 that it was adding five companies to a contract to perform commercial ' +
        'deliveries of payloads to the surface of the moon.',
    );
    expect(metadata.siteName).toBe('SpaceNews.com');
    expect(metadata.language).toBe('en-US');
    expect(metadata.canonicalUrl).toBe(
      'https://spacenews.com/nasa-adds-five-companies-to-commercial-lunar-lander-program/',
    );
    expect(metadata.openGraph.type).toBe('article');
    expect(metadata.openGraph.image).toBe('https://spacenews.com/wp-content/uploads/2019/11/starship-moon.jpg');
  });

  it('venturebeat: NewsArticle author and datePublished', () => {
    const metadata = metadataOf(
      'zyte-venturebeat-wework.html.gz',
      'https://venturebeat.com/2019/11/18/new-york-state-attorney-general-investigating-wework-and-former-ceo/',
    );
    expect(metadata.author).toBe('Reuters');
    expect(metadata.publishedDate).toBe('2019-11-19T07:03:25.000Z');
    expect(metadata.title).toBe('New York State Attorney General investigating WeWork and former CEO');
  });

  it('macrumors: meta keywords split on commas, JSON-LD author and date', () => {
    const metadata = metadataOf(
      'zyte-macrumors-macbook.html.gz',
      'https://www.macrumors.com/2019/11/18/13-inch-macbook-pro-scissor-keyboard-2020/',
    );
    expect(metadata.keywords).toEqual(['Retina MacBook Pro', 'No Autolink', 'digitimes.com']);
    expect(metadata.author).toBe('Joe Rossignol');
    expect(metadata.publishedDate).toBe('2019-11-18T10:45:00.000Z');
    expect(metadata.language).toBe('en');
  });

  it('aljazeera: a "20 Nov 2019 08:02 GMT" date, news_keywords, an empty author meta ignored', () => {
    const metadata = metadataOf(
      'zyte-aljazeera-helicopter.html.gz',
      'https://www.aljazeera.com/news/2019/11/service-members-killed-afghanistan-helicopter-crash-191120070028895.html',
    );
    expect(metadata.publishedDate).toBe('2019-11-20T08:02:00.000Z');
    expect(metadata.keywords).toEqual(['Asia', 'Afghanistan', 'United States']);
    expect(metadata.author).toBe('Al Jazeera');
    expect(metadata.language).toBeNull();
  });

  it('blog: article:tag given as one comma-joined string', () => {
    const metadata = metadataOf(
      'blog-llm-tuning-math.html',
      'https://microsoft.github.io/autogen/blog/2023/04/21/LLM-tuning-math',
    );
    expect(metadata.keywords).toEqual(['LLM', 'GPT', 'research']);
    // Its only author tag is a LinkedIn URL; extract() fills the name from Readability's byline.
    expect(metadata.author).toBeNull();
    expect(metadata.publishedDate).toBe('2023-04-21T00:00:00.000Z');
  });
});

describe('readMetadata on hand-made markup', () => {
  it('reads meta tags when there is no JSON-LD, and skips URL authors', () => {
    const doc = parseDocument(`<html><head>
      <meta property="article:author" content="https://www.facebook.com/someone">
      <meta name="author" content="Ada Lovelace">
      <meta name="parsely-pub-date" content="2021-03-04 05:06:07">
      <meta name="keywords" content="alpha, beta,, Beta ,gamma">
      <meta property="og:site_name" content="Example News">
      <meta property="og:locale" content="fr_FR">
      <link rel="canonical" href="/story">
      <title>Plain title</title></head><body></body></html>`);
    const metadata = readMetadata(doc, new URL('https://news.example/a/b'));
    expect(metadata.author).toBe('Ada Lovelace');
    // A time without a zone is read as UTC, so the result does not depend on the worker's time zone.
    expect(metadata.publishedDate).toBe('2021-03-04T05:06:07.000Z');
    expect(metadata.keywords).toEqual(['alpha', 'beta', 'gamma']);
    expect(metadata.siteName).toBe('Example News');
    expect(metadata.language).toBe('fr-FR');
    expect(metadata.canonicalUrl).toBe('https://news.example/story');
    expect(metadata.title).toBe('Plain title');
  });

  it('survives broken JSON-LD and falls back to <time datetime>', () => {
    const doc =
      parseDocument(`<html><head><script type="application/ld+json">{"@type": "Article", broken</script></head>
      <body><article><time datetime="2020-02-29">29 Feb</time></article></body></html>`);
    const metadata = readMetadata(doc, null);
    expect(metadata.publishedDate).toBe('2020-02-29T00:00:00.000Z');
    expect(metadata.author).toBeNull();
    expect(metadata.keywords).toEqual([]);
  });
});

describe('toIsoDate', () => {
  it.each([
    ['2019-11-19T04:50:22+00:00', '2019-11-19T04:50:22.000Z'],
    ['2019-11-18', '2019-11-18T00:00:00.000Z'],
    ['November 18, 2019', '2019-11-18T00:00:00.000Z'],
    ['1574168580', '2019-11-19T13:03:00.000Z'],
    ['2019/11/18 some words', '2019-11-18T00:00:00.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(toIsoDate(input)).toBe(expected);
  });

  it.each(['', 'yesterday', 'Version 2', '3 hours ago', '0000-00-00'])('rejects %j', (input) => {
    expect(toIsoDate(input)).toBeNull();
  });
});

describe('authorFromByline', () => {
  it('keeps the name and drops "By" and dates', () => {
    expect(authorFromByline('by Jeff Foust — November 18, 2019')).toBe('Jeff Foust');
    expect(authorFromByline('By Jane Doe')).toBe('Jane Doe');
    expect(authorFromByline('Posted on 2019-11-18 in News and Stories and Other Things')).toBeNull();
    expect(authorFromByline(null)).toBeNull();
  });
});
