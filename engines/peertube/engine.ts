/**
 * One PeerTube instance through its REST API (GET /api/v1/search/videos).
 * Point engines.peertube.baseUrl at the instance to search; an instance's
 * search covers its own videos and those it federates with.
 */
import { defineEngine } from '../../core/engine.js';
import { parsePeertubeVideos, peertubeSearchUrl } from '../_video/peertube-json.js';

export default defineEngine({
  buildRequest({ query, settings }) {
    return { method: 'GET', url: peertubeSearchUrl(settings.baseUrl, query), headers: { accept: 'application/json' } };
  },

  parseResponse(response, { settings }) {
    return { results: parsePeertubeVideos(response.body, 'peertube', settings.baseUrl) };
  },
});
