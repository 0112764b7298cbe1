import { describe, expect, it } from 'vitest';
import { loadPage, zyteTruth } from '../../test/fixtures/pages/load-page.js';
import { extract } from './extract.js';
import run from '../../workers/extract.worker.js';

/** Whitespace-insensitive containment: the ground truth and the extraction break lines differently. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function firstSentence(body: string): string {
  return squash(body).split(/(?<=[.!?])\s/)[0] ?? '';
}

function lastSentence(body: string): string {
  return (
    squash(body)
      .split(/(?<=[.!?])\s/)
      .at(-1) ?? ''
  );
}

const ZYTE_PAGES = [
  { name: 'zyte-spacenews-clps', boilerplate: ['Related', 'Subscribe to SpaceNews', 'Most Popular'] },
  { name: 'zyte-venturebeat-wework', boilerplate: ['Sign up for', 'VB Events', 'All Rights Reserved'] },
  { name: 'zyte-macrumors-macbook', boilerplate: ['Top Rated Comments', "Buyer's Guide", 'Popular Stories'] },
  { name: 'zyte-aljazeera-helicopter', boilerplate: ['Related', 'Follow Al Jazeera', 'Privacy Policy'] },
];

describe('extract on Zyte benchmark articles', () => {
  for (const { name, boilerplate } of ZYTE_PAGES) {
    it(`${name}: keeps the annotated body from first to last sentence, without boilerplate`, () => {
      const truth = zyteTruth(name);
      const result = extract(loadPage(`${name}.html.gz`), truth.url);
      const text = squash(result.text);
      expect(result.success).toBe(true);
      expect(result.failureReason).toBeUndefined();
      expect(text).toContain(firstSentence(truth.articleBody));
      expect(text).toContain(lastSentence(truth.articleBody));
      for (const phrase of boilerplate) expect(text).not.toContain(phrase);
      expect(result.wordCount).toBeGreaterThan(200);
      expect(result.contentQualityScore).toBeGreaterThan(0.6);
    });
  }

  it('fills title, paragraphs, images, links and markdown for a news article', () => {
    const truth = zyteTruth('zyte-spacenews-clps');
    const result = extract(loadPage('zyte-spacenews-clps.html.gz'), truth.url);
    expect(result.url).toBe(truth.url);
    // og:title ends in " - SpaceNews.com"; the site name is dropped.
    expect(result.title).toBe('NASA adds five companies to commercial lunar lander program');
    expect(result.text).toMatch(/\n\nWASHINGTON — NASA announced Nov\. 18/);
    expect(result.images).toContain('https://spacenews.com/wp-content/uploads/2019/11/starship-moon-879x485.jpg');
    expect(result.links).toContainEqual({
      url: 'https://spacenews.com/blue-origin-unveils-lunar-lander/',
      text: 'its Blue Moon lander that the company unveiled in May',
    });
    expect(result.markdown).toContain(
      'Blue Origin will offer NASA [its Blue Moon lander that the company unveiled in May][3]',
    );
    expect(result.markdown).toMatch(/\n\[3\]: https:\/\/spacenews\.com\/blue-origin-unveils-lunar-lander\/(\n|$)/);
    expect(result.wordCount).toBeGreaterThan(800);
    expect(result.wordCount).toBeLessThan(900);
  });
});

describe('extract on the markitdown pages', () => {
  const wikipedia = extract(loadPage('wikipedia-microsoft.html.gz'), 'https://en.wikipedia.org/wiki/Microsoft');

  it('Wikipedia: keeps the article and drops the wiki chrome', () => {
    expect(wikipedia.success).toBe(true);
    expect(wikipedia.title).toBe('Microsoft');
    expect(wikipedia.markdown).toContain(
      'Microsoft entered the operating system (OS) business in 1980 with its own version of [Unix]',
    );
    // Upstream expects the inline link [Bill Gates](/wiki/Bill_Gates "Bill Gates"); here links are references.
    expect(wikipedia.markdown).toMatch(/Microsoft was founded by \[Bill Gates\]\[(\d+)\]/);
    const reference = /Microsoft was founded by \[Bill Gates\]\[(\d+)\]/.exec(wikipedia.markdown)?.[1];
    expect(wikipedia.markdown).toContain(`\n[${reference}]: https://en.wikipedia.org/wiki/Bill_Gates\n`);
    for (const unwanted of ['You are encouraged to create an account and log in', '154 languages', 'move to sidebar']) {
      expect(wikipedia.markdown).not.toContain(unwanted);
      expect(wikipedia.text).not.toContain(unwanted);
    }
    expect(wikipedia.text).toContain('Microsoft was founded by Bill Gates');
  });

  it('Wikipedia: renders the infobox as a GFM pipe table and headings as ATX', () => {
    expect(wikipedia.markdown).toMatch(/\n\| --- \| --- \|\n/);
    expect(wikipedia.markdown).toMatch(/\n\| Industry \| \[Information technology\]\[\d+\] \|\n/);
    expect(wikipedia.markdown).toMatch(/\n## History\n/);
  });

  it('Wikipedia: links and images are absolute, deduplicated, without in-page anchors', () => {
    const urls = wikipedia.links.map((link) => link.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls).toContain('https://en.wikipedia.org/wiki/Bill_Gates');
    expect(urls.every((url) => /^https?:\/\//.test(url))).toBe(true);
    expect(urls.some((url) => url.startsWith('https://en.wikipedia.org/wiki/Microsoft#'))).toBe(false);
    expect(wikipedia.images.length).toBeGreaterThan(3);
    expect(wikipedia.images.every((url) => url.startsWith('https://upload.wikimedia.org/'))).toBe(true);
  });

  it('blog: keeps the upstream must-include sentences', () => {
    const blog = extract(
      loadPage('blog-llm-tuning-math.html'),
      'https://microsoft.github.io/autogen/blog/2023/04/21/LLM-tuning-math',
    );
    const intro =
      'Large language models (LLMs) are powerful tools that can generate natural language texts for various ' +
      'applications, such as chatbots, summarization, translation, and more. GPT-4 is currently the state of ' +
      'the art LLM in the world. Is model selection irrelevant? What about inference parameters?';
    expect(blog.success).toBe(true);
    expect(blog.markdown).toContain(intro);
    expect(blog.markdown).toContain('an example where high cost can easily prevent a generic complex');
    expect(blog.text).toContain(intro);
    expect(blog.markdown).toMatch(/\n## Experiment Setup/);
    expect(blog.metadata.author).toBe('Chi Wang');
    expect(blog.images[0]).toMatch(/^https:\/\/microsoft\.github\.io\/autogen\/assets\/images\/level2algebra-/);
  });
});

describe('extract on hand-made markup', () => {
  const url = 'https://example.org/docs/page.html';
  const paragraph =
    'This sentence is long enough to count as real prose for the extractor and the reader alike. '.repeat(4);
  const html = `<!doctype html><html lang="en"><head><title>Guide to tables | Example</title><base href="https://cdn.example.org/base/"></head><body>
    <nav><a href="/home">Home</a> <a href="/about">About</a></nav>
    <article>
      <h1>Guide to tables</h1>
      <p>${paragraph}<a href="next.html">next page</a> and <a href="javascript:void(0)">a script link</a> and <a href="#top">top</a>.</p>
      <p>${paragraph}<img src="img/chart.png" alt="A chart"><img src="data:image/png;base64,AAAA"><img src="img/chart.png"></p>
      <pre><code class="language-js">const answer = 42;
console.log(answer);</code></pre>
      <table><thead><tr><th>Name</th><th>Value | unit</th></tr></thead>
        <tbody><tr><td>alpha</td><td>1</td></tr><tr><td colspan="2">wide</td></tr></tbody></table>
      <ul><li>first item</li><li>second item</li></ul>
      <p>${paragraph}<a href="next.html">same page again</a></p>
    </article>
    <footer>Copyright Example</footer></body></html>`;
  const result = extract(html, url);

  it('resolves against <base href> and drops data:, javascript: and in-page links', () => {
    expect(result.images).toEqual(['https://cdn.example.org/base/img/chart.png']);
    expect(result.links).toEqual([{ url: 'https://cdn.example.org/base/next.html', text: 'next page' }]);
  });

  it('writes fenced code, GFM tables with escaped pipes, lists and one reference per URL', () => {
    expect(result.markdown).toContain('```js\nconst answer = 42;\nconsole.log(answer);\n```');
    expect(result.markdown).toContain('| Name | Value \\| unit |\n| --- | --- |\n| alpha | 1 |\n| wide | |');
    expect(result.markdown).toContain('-   first item\n-   second item');
    expect(result.markdown).toContain('[next page][1]');
    expect(result.markdown).toContain('[same page again][1]');
    expect(result.markdown).toMatch(/\n\n\[1\]: https:\/\/cdn\.example\.org\/base\/next\.html$/);
    expect(result.markdown).not.toContain('Copyright Example');
  });

  it('separates paragraphs by blank lines and list items and table rows by line breaks', () => {
    expect(result.text).toContain('first item\nsecond item');
    expect(result.text).toContain('Name | Value | unit\nalpha | 1\nwide');
    expect(result.text).toContain('const answer = 42;\nconsole.log(answer);');
    expect(result.text.split('\n\n').length).toBeGreaterThanOrEqual(5);
    expect(result.title).toBe('Guide to tables');
  });

  it('honours the options', () => {
    const bare = extract(html, url, { markdown: false, includeImages: false, includeLinks: false });
    expect(bare.markdown).toBe('');
    expect(bare.images).toEqual([]);
    expect(bare.links).toEqual([]);
    expect(bare.text).toBe(result.text);
  });

  it('falls back to the cleaned body when there is no article, and never throws', () => {
    const listing = extract(
      '<html><body><header>Site header</header><main><h2>Short notes</h2><p>One two three four five six ' +
        'seven eight nine ten eleven twelve.</p></main><footer>Footer text</footer></body></html>',
      'https://example.org/',
    );
    expect(listing.success).toBe(true);
    expect(listing.text).toBe('Short notes\n\nOne two three four five six seven eight nine ten eleven twelve.');
    expect(extract('', 'not a url').failureReason).toBe('empty');
    expect(
      extract('<p>fragment without html element but with enough words to pass the empty check</p>', '').success,
    ).toBe(true);
  });

  it('reads collapsed tabs and accordions of the content into the text, as into the markdown', () => {
    const tabs = `<html><body><main><h1>Install</h1><p>${paragraph}</p>
      <div role="tabpanel">Run pip install quarry on Python.</div>
      <div role="tabpanel" hidden>Run npm install quarry on Node.</div>
      <details><summary>Why?</summary><div style="display:none">Because the answer is folded away.</div></details></main></body></html>`;
    const tabbed = extract(tabs, url);
    for (const hidden of ['Run npm install quarry on Node.', 'Because the answer is folded away.']) {
      expect(tabbed.text).toContain(hidden);
      expect(tabbed.markdown).toContain(hidden);
    }
  });

  it('a page whose only text is hidden (a screen-reader notice, a template) is still empty', () => {
    const shell = extract(
      `<html><body><div id="app"></div><ul hidden><li>Choosing a selection results in a full page refresh.</li><li>Opens in a new window.</li></ul>
        <footer><p>${paragraph}</p></footer></body></html>`,
      'https://shop.example/collections/jackets',
    );
    expect(shell.success).toBe(false);
    expect(shell.failureReason).toBe('empty');
  });

  it('the worker entry returns the same result as extract', () => {
    expect(run({ html, url })).toEqual(result);
    expect(run({ html, url, options: { markdown: false } }).markdown).toBe('');
  });
});
