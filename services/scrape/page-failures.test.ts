import { describe, expect, it } from 'vitest';
import { extractionFailure } from './page-failures.js';

describe('extractionFailure', () => {
  it('calls only block pages BLOCKED', () => {
    for (const reason of ['captcha', 'blocked', 'consent_wall'])
      expect(extractionFailure(reason)).toEqual({ code: 'BLOCKED', reason });
  });

  it('calls empty and over-deep pages EMPTY_CONTENT', () => {
    expect(extractionFailure('empty')).toEqual({ code: 'EMPTY_CONTENT', reason: 'empty' });
    expect(extractionFailure('markup_too_deep')).toEqual({ code: 'EMPTY_CONTENT', reason: 'markup_too_deep' });
    expect(extractionFailure(undefined)).toEqual({ code: 'EMPTY_CONTENT', reason: 'empty' });
  });

  it('calls an extractor that broke on the page EXTRACTION_FAILED, not BLOCKED', () => {
    expect(extractionFailure('extraction_error')).toEqual({ code: 'EXTRACTION_FAILED', reason: 'extraction_error' });
  });
});
