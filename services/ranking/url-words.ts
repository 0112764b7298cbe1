/**
 * The words of a URL, for scoring it against a query or a crawl's instructions
 * lexically (enhanced search's link relevance, the agent's URL ranking): one
 * reading, so both score a URL by the same words.
 *
 * Path and query are decoded (undecoded when an escape is malformed, rather
 * than losing the URL's words) and cut at everything but letters and digits. Left out:
 * page extensions (.html, .php, .aspx), one-character words and numbers of
 * five digits or more (ids, which no query names). With `host`, the host
 * name's labels come first: instructions often name a part of a site by it.
 */

const PAGE_EXTENSION = /\.(html?|php|aspx?)\b/gi;
const LONG_NUMBER = /^\d{5,}$/;

/** "https://docs.example.com/getting-started.html?page=2", host: true → "docs example com getting started page". */
export function urlWords(url: string, options: { host?: boolean } = {}): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  const where = decodedOrAsWritten(`${parsed.pathname} ${parsed.search}`).replace(PAGE_EXTENSION, ' ');
  return `${options.host ? parsed.hostname : ''} ${where}`
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && !LONG_NUMBER.test(word))
    .join(' ');
}

function decodedOrAsWritten(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
