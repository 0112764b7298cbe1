import { describe, expect, it } from 'vitest';
import { decodeBody, responseDecodedOnRead } from './response-body.js';

/** Text as windows-1252 bytes (every character here is in that code page). */
function cp1252(text: string): Uint8Array {
  const upper: Record<string, number> = {
    '€': 0x80,
    '‚': 0x82,
    '„': 0x84,
    '–': 0x96,
    '—': 0x97,
    '‘': 0x91,
    '’': 0x92,
    '“': 0x93,
    '”': 0x94,
    '™': 0x99,
  };
  return Uint8Array.from([...text].map((c) => upper[c] ?? c.charCodeAt(0)));
}

describe('decodeBody', () => {
  it('reads a page labelled ISO-8859-1 as browsers do, as windows-1252: quotes, dashes and € included', () => {
    const text = 'L’été — “Preis: 5 €” – Café™';
    expect(decodeBody(cp1252(text), 'text/html; charset=ISO-8859-1')).toBe(text);
    expect(decodeBody(cp1252(`<meta charset="windows-1252">${text}`), 'text/html')).toBe(
      `<meta charset="windows-1252">${text}`,
    );
  });

  it('keeps UTF-8 as the default, and a BOM over any label', () => {
    expect(decodeBody(Buffer.from('naïve – ok'), 'text/html')).toBe('naïve – ok');
    expect(decodeBody(Buffer.from('\uFEFFnaïve'), 'text/html; charset=windows-1252')).toBe('naïve');
    expect(decodeBody(Buffer.from('x'), 'text/html; charset=no-such-charset')).toBe('x');
  });
});

describe('responseDecodedOnRead', () => {
  it('decodes the body once, when it is first read', () => {
    const bytes = cp1252('“quoted”');
    const response = responseDecodedOnRead({
      status: 200,
      headers: { 'content-type': 'text/plain; charset=windows-1252' },
      bytes,
      url: 'https://example.org/',
      elapsedMs: 1,
    });
    bytes[1] = 'Q'.charCodeAt(0);
    expect(response.body).toBe('“Quoted”');
    bytes[1] = 'X'.charCodeAt(0);
    expect(response.body).toBe('“Quoted”');
  });
});
