/**
 * The webhook URL of an async request goes through the outbound policy when the request is made, not only at delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playDefaultEngines } from '../recordings.js';
import { startSandboxWeb, type SandboxWeb } from '../sandbox/sandbox-web.js';
import { startQuarry, type RunningQuarry } from './harness.js';

describe('async webhook_url', () => {
  let web: SandboxWeb;
  let quarry: RunningQuarry;
  beforeAll(async () => {
    web = await startSandboxWeb();
    playDefaultEngines(web);
    quarry = await startQuarry(web);
  });
  afterAll(async () => {
    await quarry?.close();
    await web?.close();
  });

  it.each([
    ['/api/v1/search/', { query: 'hello', engines: ['duckduckgo'], scrape_content: false }],
    ['/api/v1/enhanced/search', { query: 'hello', engines: ['duckduckgo'] }],
  ])(
    'refuses a private address for %s with a 400 naming webhook_url, and accepts an allowed one',
    async (path, body) => {
      const refused = await quarry.post(path, { ...body, async_mode: true, webhook_url: 'http://10.20.30.40/hook' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_INPUT');
      expect(refused.body.error.message).toMatch(/^webhook_url: /);
      const accepted = await quarry.post(path, { ...body, async_mode: true, webhook_url: web.webhookUrl('allowed') });
      expect(accepted.status).toBe(202);
      expect(accepted.body.request_id).toMatch(/^req_/);
    },
  );
});
