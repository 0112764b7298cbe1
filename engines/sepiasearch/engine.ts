/**
 * SepiaSearch (sepiasearch.org), Framasoft's index of PeerTube instances. It
 * serves the PeerTube search API (GET /api/v1/search/videos) over every
 * indexed instance, with absolute thumbnailUrl/embedUrl in each video.
 */
import { defineEngine } from '../../core/engine.js';
import { parsePeertubeVideos, peertubeSearchUrl } from '../_video/peertube-json.js';

export default defineEngine({
  buildRequest({ query, settings }) {
    return { method: 'GET', url: peertubeSearchUrl(settings.baseUrl, query), headers: { accept: 'application/json' } };
  },

  parseResponse(response, { settings }) {
    return { results: parsePeertubeVideos(response.body, 'sepiasearch', settings.baseUrl) };
  },
});
