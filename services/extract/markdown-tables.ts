/**
 * Turndown rules that keep data tables as GFM pipe tables. Layout tables
 * (nested tables, a single cell, role="presentation") are left to the default
 * rules, which turn their cells into paragraphs.
 */
import type TurndownService from 'turndown';

interface TableShape {
  columns: number;
  headerRow: Element | null;
}

// Turndown converts a fresh clone per call, so caching by node cannot go stale.
const shapes = new WeakMap<Element, TableShape | null>();

function span(cell: Element): number {
  const value = Number.parseInt(cell.getAttribute('colspan') ?? '1', 10);
  return Number.isFinite(value) && value > 1 ? Math.min(value, 50) : 1;
}

function cellsOf(row: Element): Element[] {
  return Array.from(row.children).filter((child) => child.localName === 'td' || child.localName === 'th');
}

function shapeOf(table: Element): TableShape | null {
  if (shapes.has(table)) return shapes.get(table) ?? null;
  let shape: TableShape | null = null;
  const isLayout = table.getAttribute('role') === 'presentation' || table.querySelector('table') !== null;
  if (!isLayout) {
    const rows = Array.from(table.querySelectorAll('tr'));
    let columns = 0;
    for (const row of rows)
      columns = Math.max(
        columns,
        cellsOf(row).reduce((sum, cell) => sum + span(cell), 0),
      );
    if (rows.length > 0 && (columns > 1 || rows.length > 1)) shape = { columns, headerRow: rows[0] ?? null };
  }
  shapes.set(table, shape);
  return shape;
}

function tableOf(node: Element): Element | null {
  return node.closest('table');
}

function inDataTable(node: Element): boolean {
  const table = tableOf(node);
  return table !== null && shapeOf(table) !== null;
}

const LIST_MARKER = /^(?:[-*+]|\d+\.)\s+/;

/** One line per cell: list items joined by "; ", other lines by a space; pipes escaped. */
function cellText(content: string): string {
  let text = '';
  for (const rawLine of content.split('\n')) {
    const line = rawLine.trim();
    if (!line) continue;
    const isItem = LIST_MARKER.test(line);
    if (text) text += isItem ? '; ' : ' ';
    text += line.replace(LIST_MARKER, '');
  }
  // Text arrives escaped (pipes included); only pipes made by markdown syntax still need it.
  return text.replace(/(?<!\\)\|/g, '\\|');
}

export function addTableRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && inDataTable(node),
    replacement: (content, node) => {
      const extraColumns = ' |'.repeat(span(node) - 1);
      const prefix = node.previousElementSibling ? ' ' : '| ';
      return `${prefix}${cellText(content)} |${extraColumns}`;
    },
  });
  service.addRule('tableRow', {
    filter: (node) => node.nodeName === 'TR' && inDataTable(node),
    replacement: (content, node) => {
      const shape = shapeOf(tableOf(node) as Element) as TableShape;
      const cells = cellsOf(node).reduce((sum, cell) => sum + span(cell), 0);
      if (cells === 0) return '';
      const padding = ' |'.repeat(Math.max(0, shape.columns - cells));
      const separator = node === shape.headerRow ? `\n|${' --- |'.repeat(shape.columns)}` : '';
      return `\n${content.trim()}${padding}${separator}\n`;
    },
  });
  service.addRule('tableSection', {
    filter: (node) => ['THEAD', 'TBODY', 'TFOOT'].includes(node.nodeName) && inDataTable(node),
    replacement: (content) => content,
  });
  service.addRule('tableCaption', {
    filter: (node) => node.nodeName === 'CAPTION' && inDataTable(node),
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE' && shapeOf(node) !== null,
    replacement: (content) => `\n\n${content.trim()}\n\n`,
  });
}
