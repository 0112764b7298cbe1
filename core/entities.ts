/**
 * The one decoder of character references (&amp;, &#8217;, &rsquo;) for text
 * that arrives with them still written out: engine answers, JSON-LD, sitemaps.
 * It is the `entities` package (7.x, the one htmlparser2 uses), which follows the HTML
 * standard: a reference must end in ";" (so "?a=1&copy=2" stays as written),
 * and a numeric reference past U+10FFFF, a surrogate or zero becomes U+FFFD
 * instead of throwing.
 */
import { decodeHTMLStrict, decodeXML } from 'entities';

/** HTML's named and numeric references. */
export function decodeEntities(text: string): string {
  return text.includes('&') ? decodeHTMLStrict(text) : text;
}

/** XML's five named references and numeric ones; anything else (an HTML name, a bare "&") is left as written. */
export function decodeXmlEntities(text: string): string {
  return text.includes('&') ? decodeXML(text) : text;
}
