/**
 * Openverse (api.openverse.org) audio search: openly licensed music and
 * sound effects through the official, keyless GET /v1/audio/ endpoint.
 */
import { defineEngine, stripMarkup, type EngineResult } from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString } from '../_lib/json-body.js';
import { openverseLicense, openverseRequest, openverseResults } from '../_openverse/openverse.js';

function clean(value: unknown): string {
  const text = asString(value);
  return text === undefined ? '' : stripMarkup(text);
}

function toResult(value: unknown): EngineResult | undefined {
  const track = asRecord(value);
  const audioUrl = absoluteHttpUrl(asString(track?.url));
  const url = absoluteHttpUrl(asString(track?.foreign_landing_url)) ?? audioUrl;
  if (!track || !url) return undefined;
  const title = clean(track.title) || url;
  const genres = asArray(track.genres)
    .filter((genre): genre is string => typeof genre === 'string' && genre.trim() !== '')
    .map(stripMarkup);
  const license = clean(track.license);
  const licenseText = openverseLicense(license, clean(track.license_version)) ?? '';
  const category = clean(track.category);
  const result: EngineResult = {
    url,
    title,
    snippet: [genres.join(', '), category, licenseText].filter(Boolean).join(' · '),
  };
  const creator = clean(track.creator);
  if (creator) result.author = creator;
  const thumbnail = absoluteHttpUrl(asString(track.thumbnail));
  if (thumbnail) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = {};
  if (audioUrl) extra.audioUrl = audioUrl;
  if (typeof track.duration === 'number' && track.duration > 0) {
    extra.duration = track.duration;
    extra.durationSeconds = Math.round(track.duration / 1000);
  }
  const fileType = clean(track.filetype);
  if (fileType) extra.fileType = fileType;
  if (licenseText) extra.license = licenseText;
  const licenseUrl = absoluteHttpUrl(asString(track.license_url));
  if (licenseUrl) extra.licenseUrl = licenseUrl;
  const source = clean(track.source) || clean(track.provider);
  if (source) extra.source = source;
  if (genres.length > 0) extra.genres = genres;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return openverseRequest(settings, 'audio', query);
  },

  parseResponse(response) {
    return {
      results: openverseResults(response, 'openverse_audio')
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
