/** The page-action schema areas validate with, and the reader's own rules for actions and headers. */
import { describe, expect, it } from 'vitest';
import {
  callerHeaders,
  checkPageActions,
  MAX_PAGE_ACTIONS,
  pageActionSchema,
  pageActionsSchema,
  pageHeadersSchema,
} from './page-actions.js';

describe('pageActionSchema', () => {
  it('accepts every action in its Firecrawl shape', () => {
    const actions = [
      { type: 'wait', milliseconds: 500 },
      { type: 'wait', selector: '#late' },
      { type: 'click', selector: 'button.more', all: true },
      { type: 'write', text: 'granite' },
      { type: 'press', key: 'Enter' },
      { type: 'scroll', direction: 'up', selector: '#list' },
      { type: 'scroll' },
      { type: 'screenshot', fullPage: true, quality: 80 },
      { type: 'scrape' },
      { type: 'executeJavascript', script: 'document.title' },
    ];
    expect(pageActionsSchema.parse(actions)).toEqual(actions);
  });

  it('a wait takes exactly one of milliseconds and selector', () => {
    expect(pageActionSchema.safeParse({ type: 'wait' }).success).toBe(false);
    const both = pageActionSchema.safeParse({ type: 'wait', milliseconds: 10, selector: '#a' });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.message).toMatch(/exactly one of milliseconds and selector/);
  });

  it('refuses unknown actions, unknown fields, empty selectors and too many actions', () => {
    expect(pageActionSchema.safeParse({ type: 'hover', selector: '#a' }).success).toBe(false);
    expect(pageActionSchema.safeParse({ type: 'click', selector: '#a', force: true }).success).toBe(false);
    expect(pageActionSchema.safeParse({ type: 'click', selector: '' }).success).toBe(false);
    expect(pageActionSchema.safeParse({ type: 'wait', milliseconds: 60_001 }).success).toBe(false);
    expect(
      pageActionsSchema.safeParse(Array.from({ length: MAX_PAGE_ACTIONS + 1 }, () => ({ type: 'scrape' }))).success,
    ).toBe(false);
  });
});

describe('the reader rules for actions', () => {
  it('refuses executeJavascript unless enabled, naming the action', () => {
    const request = { actions: [{ type: 'scrape' as const }, { type: 'executeJavascript' as const, script: '1' }] };
    expect(() => checkPageActions(request, { allowExecuteJavascript: false })).toThrow(
      expect.objectContaining({
        code: 'ACTION_NOT_ALLOWED',
        status: 403,
        details: { action_index: 1, action_type: 'executeJavascript' },
      }),
    );
    expect(() => checkPageActions(request, { allowExecuteJavascript: true })).not.toThrow();
  });

  it('refuses more than a minute of waiting, waitFor included', () => {
    const request = {
      waitFor: 30_000,
      actions: [
        { type: 'wait' as const, milliseconds: 20_000 },
        { type: 'wait' as const, milliseconds: 10_001 },
      ],
    };
    expect(() => checkPageActions(request, { allowExecuteJavascript: false })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => checkPageActions({ ...request, waitFor: 29_999 }, { allowExecuteJavascript: false })).not.toThrow();
  });
});

describe('caller headers', () => {
  it('drops hop-by-hop and host headers whatever their case, and keeps the rest', () => {
    expect(
      callerHeaders({
        Host: 'evil.example',
        'Transfer-Encoding': 'chunked',
        connection: 'close',
        'X-Token': 'abc',
        Cookie: 'a=b',
      }),
    ).toEqual({ 'X-Token': 'abc', Cookie: 'a=b' });
    expect(callerHeaders({ host: 'x' })).toBeUndefined();
  });

  it('header names are tokens and values hold no line breaks', () => {
    expect(pageHeadersSchema.safeParse({ 'X-Ok': 'fine' }).success).toBe(true);
    expect(pageHeadersSchema.safeParse({ 'Bad Name': 'x' }).success).toBe(false);
    expect(pageHeadersSchema.safeParse({ 'X-Split': 'a\r\nInjected: yes' }).success).toBe(false);
  });
});
