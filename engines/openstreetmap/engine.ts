/** OpenStreetMap place search through Nominatim (format=jsonv2). */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  type EngineResult,
} from '../../core/engine.js';

const LIMIT = 10;
const SITE = 'https://www.openstreetmap.org';

interface Place {
  place_id?: string | number;
  osm_type?: string;
  osm_id?: string | number;
  lat?: string;
  lon?: string;
  display_name?: string;
  name?: string;
  category?: string;
  type?: string;
  boundingbox?: string[];
  importance?: number;
  icon?: string;
  address?: Record<string, string>;
}

const OSM_TYPES = new Set(['node', 'way', 'relation']);

function placeUrl(place: Place, lat: number, lon: number): string {
  if (place.osm_type && OSM_TYPES.has(place.osm_type) && place.osm_id !== undefined)
    return `${SITE}/${place.osm_type}/${place.osm_id}`;
  return `${SITE}/?mlat=${lat}&mlon=${lon}#map=15/${lat}/${lon}`;
}

function placeToResult(place: Place): EngineResult | undefined {
  const lat = Number(place.lat);
  const lon = Number(place.lon);
  if (!place.display_name || !Number.isFinite(lat) || !Number.isFinite(lon)) return undefined;
  const kind = [place.category, place.type].filter(Boolean).join(' / ');
  return {
    url: placeUrl(place, lat, lon),
    title: place.name || place.display_name.split(',')[0]!.trim(),
    snippet: [place.display_name, kind].filter(Boolean).join(' — '),
    extra: {
      latitude: lat,
      longitude: lon,
      boundingBox: place.boundingbox?.map(Number),
      category: place.category,
      type: place.type,
      address: place.address,
      importance: place.importance,
    },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    const params = new URLSearchParams({
      format: 'jsonv2',
      q: ctx.query.query,
      limit: String(LIMIT),
      addressdetails: '1',
    });
    if (ctx.query.language !== 'all') params.set('accept-language', ctx.query.language);
    return { method: 'GET', url: `${base}/search?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    // Nominatim's usage policy blocks with 403 (e.g. a missing or generic User-Agent).
    if (response.status === 403) throw new EngineAccessDeniedError('nominatim denied access (usage policy)');
    let places: unknown;
    try {
      places = JSON.parse(response.body);
    } catch {
      throw new EngineParseError('nominatim did not answer JSON');
    }
    if (!Array.isArray(places)) throw new EngineParseError('nominatim did not answer a list of places');
    return { results: (places as Place[]).map(placeToResult).filter((result) => result !== undefined) };
  },
});
