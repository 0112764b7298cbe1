import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsIn } from './redact-url.js';

describe('redactUrl', () => {
  it('hides credentials and secret-looking query values, and keeps the rest', () => {
    expect(redactUrl('https://alice:s3cret@hooks.example.com/in?token=abc&x=1')).toBe(
      'https://***:***@hooks.example.com/in?token=***&x=1',
    );
    expect(redactUrl('https://hooks.example.com/in?api_key=k&sig=s')).toBe(
      'https://hooks.example.com/in?api_key=***&sig=***',
    );
    expect(redactUrl('https://hooks.example.com/plain')).toBe('https://hooks.example.com/plain');
    expect(redactUrl('not a url //user:pw@host')).toBe('not a url //***@host');
  });

  it('redacts URLs inside messages', () => {
    expect(redactUrlsIn('delivery to https://u:p@h.example/x failed')).toBe(
      'delivery to https://***:***@h.example/x failed',
    );
  });
});
