/**
 * Element names several parsers of a page share. Each parser keeps its own list of what counts as a
 * block for its purpose (a paragraph of text, a unit of content, a cell's line break), but the HTML
 * vocabulary those lists are made of is written once here.
 */

/** HTML's heading content. */
export const HEADING_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/**
 * The blocks every walker of a page's text starts a new paragraph at: paragraphs, sections and their
 * landmarks, headings, quotations and lists. Each walker adds the rest of what it counts as a block.
 */
export const PROSE_BLOCK_TAGS = [
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  ...HEADING_TAGS,
  'blockquote',
  'ul',
  'ol',
] as const;

/** Elements whose text is never page content: scripts, styles, embedded documents, form controls, head matter. */
export const NON_CONTENT_TAGS = [
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'select',
  'option',
  'button',
  'textarea',
  'input',
  'link',
  'meta',
] as const;
