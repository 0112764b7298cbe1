import { describe, expect, it } from 'vitest';
import { fixturePages } from '../../test/sandbox/fixture-pages.js';
import { extractWithCss } from './css-extract.js';
import { parseCssSchema } from './css-schema.js';

const page = (name: string) => fixturePages().find((p) => p.name === name)!.html;

describe('json_css on real pages', () => {
  it('reads the Wikipedia infobox rows as records, with attributes resolved against the page URL', () => {
    const schema = parseCssSchema({
      name: 'infobox',
      baseSelector: 'table.infobox tr:has(th.infobox-label)',
      fields: [
        { name: 'label', selector: 'th', type: 'text' },
        { name: 'value', selector: 'td', type: 'text' },
        {
          name: 'links',
          selector: 'td a[href]',
          type: 'nested_list',
          fields: [
            { name: 'href', type: 'attribute', attribute: 'href' },
            { name: 'text', type: 'text' },
          ],
        },
      ],
    });
    const rows = extractWithCss(page('wikipedia-microsoft'), 'https://en.wikipedia.org/wiki/Microsoft', schema);
    expect(rows.length).toBeGreaterThan(5);
    const founders = rows.find((r) => /Founders?/.test(String(r.label)));
    expect(String(founders?.value)).toMatch(/Bill Gates/);
    const links = founders?.links as Array<{ href: string; text: string }>;
    expect(links.find((l) => l.text === 'Bill Gates')?.href).toBe('https://en.wikipedia.org/wiki/Bill_Gates');
  });

  it('reads nested objects, lists and html from an article page', () => {
    const schema = parseCssSchema({
      baseSelector: 'body',
      fields: [
        { name: 'title', selector: 'h1', type: 'text' },
        { name: 'sections', selector: 'div.content h2', type: 'list' },
        {
          name: 'first',
          selector: 'div.content',
          type: 'nested',
          fields: [
            { name: 'lead', selector: 'p', type: 'text' },
            { name: 'lead_html', selector: 'p', type: 'html' },
          ],
        },
        { name: 'absent', selector: 'blink', type: 'text' },
      ],
    });
    const [record] = extractWithCss(
      page('article-audi-etron-sportback'),
      'https://www.slashgear.com/audi-e-tron-sportback/',
      schema,
    );
    expect(record!.title).toMatch(/2020 Audi e-tron Sportback/);
    expect((record!.sections as string[]).slice(0, 3)).toEqual([
      'Power and Performance',
      'Range and Charging',
      'Interior and Technology',
    ]);
    expect((record!.first as { lead: string }).lead).toMatch(/^Audi has revealed/);
    expect(record!.absent).toBeNull();
  });

  it('refuses bad schemas naming the field', () => {
    const bad: Array<[unknown, RegExp]> = [
      [[], /css_schema: must be an object/],
      [{ fields: [{ name: 'a' }] }, /css_schema\.baseSelector: is required/],
      [{ baseSelector: 'div' }, /css_schema\.fields: must be a non-empty array/],
      [{ baseSelector: 'div[', fields: [{ name: 'a' }] }, /css_schema\.baseSelector: invalid CSS selector/],
      [{ baseSelector: 'div', fields: [{ name: 'a', selector: '>>' }] }, /fields\[0\]\.selector: invalid CSS selector/],
      [{ baseSelector: 'div', fields: [{ name: 'a', type: 'xpath' }] }, /fields\[0\]\.type: must be one of/],
      [{ baseSelector: 'div', fields: [{ name: 'a' }, { name: 'a' }] }, /duplicate field name/],
      [
        { baseSelector: 'div', fields: [{ name: 'l', type: 'list' }] },
        /fields\[0\]\.selector: is required for type "list"/,
      ],
      [
        {
          baseSelector: 'div',
          fields: [{ name: 'n', type: 'nested', selector: 'p', fields: [{ name: 'x', selector: 'p..q' }] }],
        },
        /fields\[0\]\.fields\[0\]\.selector/,
      ],
      [{ baseSelector: 'div', fields: [{ name: 'a', css: 'p' }] }, /unknown key\(s\) css/],
    ];
    for (const [schema, message] of bad) expect(() => parseCssSchema(schema), JSON.stringify(schema)).toThrow(message);
  });
});
