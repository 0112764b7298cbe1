/**
 * Photon (photon.komoot.io), komoot's OpenStreetMap geocoder: GET /api/?q=
 * answers a GeoJSON FeatureCollection whose features carry the OSM object
 * (osm_type N/W/R + osm_id) and its address parts in properties.
 */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const LIMIT = 10;
const SITE = 'https://www.openstreetmap.org';
/** The languages photon.komoot.io documents for lang=. */
const LANGUAGES = new Set(['de', 'en', 'fr']);
const OSM_TYPES: Record<string, string> = { N: 'node', W: 'way', R: 'relation' };

function text(value: unknown): string | undefined {
  const string = typeof value === 'number' ? String(value) : asString(value);
  const cleaned = string === undefined ? '' : stripMarkup(string);
  return cleaned || undefined;
}

/** Street line, place line and the wider areas, without repeating the title. */
export function addressLine(properties: Record<string, unknown>, title: string): string {
  const street = [text(properties.street), text(properties.housenumber)].filter(Boolean).join(' ');
  const city = text(properties.city) ?? text(properties.locality);
  const place = [text(properties.postcode), city].filter(Boolean).join(' ');
  // City-states (Berlin, Hamburg, Vienna) name the state like the city.
  const state = text(properties.state) === city ? undefined : text(properties.state);
  const parts = [street, text(properties.district), place, text(properties.county), state, text(properties.country)];
  const seen = new Set([title]);
  return parts
    .filter((part): part is string => Boolean(part))
    .filter((part) => (seen.has(part) ? false : (seen.add(part), true)))
    .join(', ');
}

function toResult(value: unknown): EngineResult | undefined {
  const feature = asRecord(value);
  const properties = asRecord(feature?.properties);
  const coordinates = asArray(asRecord(feature?.geometry)?.coordinates);
  const [lon, lat] = coordinates;
  if (
    !properties ||
    typeof lat !== 'number' ||
    typeof lon !== 'number' ||
    !Number.isFinite(lat) ||
    !Number.isFinite(lon)
  )
    return undefined;
  const street = [text(properties.street), text(properties.housenumber)].filter(Boolean).join(' ');
  const title =
    text(properties.name) ??
    (street || undefined) ??
    text(properties.city) ??
    text(properties.state) ??
    text(properties.country);
  if (!title) return undefined;
  const osmType = OSM_TYPES[asString(properties.osm_type) ?? ''];
  const osmId =
    typeof properties.osm_id === 'number' || typeof properties.osm_id === 'string'
      ? String(properties.osm_id)
      : undefined;
  const url =
    osmType && osmId && /^\d+$/.test(osmId)
      ? `${SITE}/${osmType}/${osmId}`
      : `${SITE}/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
  const extra: Record<string, unknown> = { latitude: lat, longitude: lon };
  // extent is [minLon, maxLat, maxLon, minLat].
  const extent = asArray(properties.extent).filter((n): n is number => typeof n === 'number');
  if (extent.length === 4) extra.boundingBox = extent;
  for (const [field, key] of [
    ['osmKey', 'osm_key'],
    ['osmValue', 'osm_value'],
    ['type', 'type'],
    ['countryCode', 'countrycode'],
  ] as const) {
    const value = text(properties[key]);
    if (value) extra[field] = value;
  }
  return { url, title, snippet: addressLine(properties, title), extra };
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const lang = LANGUAGES.has(query.language) ? query.language : undefined;
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/api/', { q: query.query, limit: LIMIT, lang }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError('photon answered 429 Too Many Requests');
    const data = asRecord(parseJsonBody(response.body, 'photon'));
    if (!data || !Array.isArray(data.features)) {
      const message = asString(data?.message);
      throw new EngineParseError(`photon answered without features${message ? `: ${message}` : ''}`);
    }
    return { results: data.features.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
