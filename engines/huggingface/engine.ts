/** Hugging Face Hub model search (/api/models, JSON), most downloaded first. */
import { defineEngine, EngineParseError, EngineRateLimitedError, type EngineResult } from '../../core/engine.js';

const LIMIT = 20;
const SITE = 'https://huggingface.co';

interface Model {
  id?: string;
  modelId?: string;
  author?: string;
  pipeline_tag?: string;
  library_name?: string;
  downloads?: number;
  likes?: number;
  tags?: string[];
  createdAt?: string;
  lastModified?: string;
  private?: boolean;
}

function modelToResult(model: Model): EngineResult | undefined {
  const id = model.id ?? model.modelId;
  if (!id || model.private) return undefined;
  const facts = [
    model.pipeline_tag,
    model.library_name,
    model.downloads !== undefined ? `${model.downloads} downloads` : undefined,
    model.likes !== undefined ? `${model.likes} likes` : undefined,
  ];
  return {
    url: `${SITE}/${id.split('/').map(encodeURIComponent).join('/')}`,
    title: id,
    snippet: facts.filter(Boolean).join(' · '),
    publishedDate: model.lastModified ?? model.createdAt,
    author: model.author ?? (id.includes('/') ? id.split('/')[0] : undefined),
    extra: {
      pipeline: model.pipeline_tag,
      library: model.library_name,
      downloads: model.downloads,
      likes: model.likes,
    },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    const base = ctx.settings.baseUrl.replace(/\/+$/, '');
    // The Hub pages with a cursor in the Link header, so only the first page is served.
    const params = new URLSearchParams({
      search: ctx.query.query,
      sort: 'downloads',
      direction: '-1',
      limit: String(LIMIT),
    });
    return { method: 'GET', url: `${base}/api/models?${params}` };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    let models: unknown;
    try {
      models = JSON.parse(response.body);
    } catch {
      throw new EngineParseError('hugging face did not answer JSON');
    }
    if (!Array.isArray(models)) throw new EngineParseError('hugging face did not answer a list of models');
    return { results: (models as Model[]).map(modelToResult).filter((result) => result !== undefined) };
  },
});
