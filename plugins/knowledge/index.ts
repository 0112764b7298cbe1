/**
 * The knowledge area (/api/v1/knowledge): extraction into the durable graph, search, people, entities, the graph,
 * deletion.
 */
import { KNOWLEDGE_USES } from './uses.js';
import { defineCapability } from '../../core/capability.js';
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import { quotaExceeded } from '../../core/principal.js';
import { GraphCapReached } from './graph/graph-cap.js';
import { definePlugin } from '../../app/plugin-services.js';
import { graphNamespace } from './service/knowledge-service.js';
import { openKnowledgeArea } from './open.js';
import { findPeople } from './people.js';
import {
  deleteOutputSchema,
  entityInputSchema,
  entityOutputSchema,
  extractInputSchema,
  extractOutputSchema,
  graphInputSchema,
  graphOutputSchema,
  peopleInputSchema,
  peopleOutputSchema,
  searchInputSchema,
  searchOutputSchema,
} from './schemas.js';
import { entityMarkdown, extractMarkdown, graphMarkdown, peopleMarkdown, searchMarkdown } from './markdown.js';
import { entityView, extractedRelationshipView, relationshipView } from './views.js';

export default definePlugin({
  uses: KNOWLEDGE_USES,
  open: openKnowledgeArea,
  // Pages feed the graph only once the service runs.
  start(_shared, { config, feeder }) {
    if (!config.knowledge.feedFromPages) return;
    feeder.start();
    return { stop: () => feeder.stop() };
  },
  close: ({ knowledge }) => knowledge.close(),

  setup(_shared, services) {
    // Each principal reads and writes its own graph (admins: the installation's).
    const graphOf = (ctx: CallContext) => services.knowledge.scoped(graphNamespace(ctx.caller));
    const maxEntities = services.config.quotas.graphEntities;

    const extract = defineCapability({
      id: 'knowledge.extract',
      title: 'Extract entities and relations',
      description:
        'Find the people, organizations, locations, products, technologies, events and works a text names, ' +
        'and the relations between them ' +
        '(leads, founded, works_for, developed, acquired, invested_in, partnered_with, competes_with, ' +
        'part_of, located_in). ' +
        'They are merged into the knowledge graph (store: false only extracts): names of one entity ' +
        '("Microsoft Corp.", "Microsoft", "MSFT") ' +
        'become one entity, source_count counts distinct sources, relation weight counts the sources that state it. ' +
        'Uses the configured language model, else an offline tagger (model_used says which).',
      input: extractInputSchema,
      output: extractOutputSchema,
      http: { method: 'POST', path: '/api/v1/knowledge/extract' },
      mcpTool: 'knowledge_extract',
      toMarkdown: extractMarkdown,
      async handler(input, ctx) {
        const started = performance.now();
        const knowledge = graphOf(ctx);
        const refused = (more?: GraphCapReached) =>
          quotaExceeded(
            'knowledge graph entities',
            maxEntities,
            'quotas.graphEntities',
            more && {
              message: `this extraction would add ${more.adding} entities to the ${more.stored} stored, so nothing was stored (store: false extracts without storing)`,
              details: { stored: more.stored, adding: more.adding },
            },
          );
        // A full graph is refused before the text is read; the commit refuses an extraction that would pass the cap,
        // atomically.
        if (input.store && (await (await knowledge.graph()).counts()).entities >= maxEntities) throw refused();
        const outcome = await knowledge
          .extract(
            {
              text: input.text,
              ...(input.types ? { types: input.types } : {}),
              store: input.store,
              source: {
                url: input.source_url ?? null,
                title: input.source_title ?? null,
                publishedDate: input.published_date ?? null,
              },
              maxEntities,
            },
            ctx.signal,
          )
          .catch((error: unknown) => {
            throw error instanceof GraphCapReached ? refused(error) : error;
          });
        return {
          entities: outcome.entities.map((e) => entityView(e)),
          relationships: outcome.edges.map((e) => extractedRelationshipView(e, outcome.evidence)),
          processing_time_ms: Math.round(performance.now() - started),
          model_used: outcome.modelUsed,
          stored: outcome.stored,
        };
      },
    });

    const search = defineCapability({
      id: 'knowledge.search',
      title: 'Search the knowledge graph',
      description:
        'Find entities of the knowledge graph by name, alias, words of a name and meaning, best first; with ' +
        'include_relationships, the relations among and around them.',
      input: searchInputSchema,
      output: searchOutputSchema,
      http: { method: 'POST', path: '/api/v1/knowledge/search' },
      mcpTool: 'knowledge_search',
      readOnly: true,
      toMarkdown: searchMarkdown,
      async handler(input, ctx) {
        const knowledge = graphOf(ctx);
        const hits = await knowledge.search(input.query, input.entity_types, input.max_results, ctx.signal);
        const relationships = input.include_relationships
          ? (await knowledge.relationsAround(hits.map((h) => h.entity.id))).map(relationshipView)
          : [];
        return { entities: hits.map((h) => entityView(h.entity, h)), relationships, query: input.query };
      },
    });

    const people = defineCapability({
      id: 'knowledge.people',
      title: 'Find people',
      description:
        'People in the knowledge graph matching a name, an organization or a topic, with title, ' +
        'organization, expertise (what they are mentioned with) and recent activity (their sources, newest ' +
        'first). Filters: organization, role. email is always null.',
      input: peopleInputSchema,
      output: peopleOutputSchema,
      http: { method: 'POST', path: '/api/v1/knowledge/people' },
      mcpTool: 'knowledge_people',
      readOnly: true,
      toMarkdown: peopleMarkdown,
      handler: (input, ctx) => findPeople(graphOf(ctx), input, ctx.signal),
    });

    const entity = defineCapability({
      id: 'knowledge.entity',
      title: 'Get an entity',
      description: 'One entity of the knowledge graph by id, with all its relations.',
      input: entityInputSchema,
      output: entityOutputSchema,
      http: { method: 'GET', path: '/api/v1/knowledge/entities/:entity_id' },
      mcpTool: 'knowledge_entity',
      readOnly: true,
      // Not listed: a graph has thousands; the ids come from knowledge_search or knowledge_graph.
      mcpResource: {
        uriTemplate: 'quarry://knowledge/entities/{entity_id}',
        name: 'entity',
        title: 'An entity of the knowledge graph',
        description:
          'One entity (person, organisation, place, …) with its aliases, sources and every relation it takes ' +
          'part in. Entity ids come from knowledge_search or knowledge_graph.',
      },
      toMarkdown: entityMarkdown,
      async handler(input, ctx) {
        const found = await graphOf(ctx).entity(input.entity_id);
        if (!found) throw new AppError('NOT_FOUND', `no entity ${input.entity_id}`);
        return { entity: entityView(found.entity), relationships: found.edges.map(relationshipView) };
      },
    });

    const graph = defineCapability({
      id: 'knowledge.graph',
      title: 'Get the knowledge graph',
      description:
        'The most connected entities (nodes, most relations first, then most sources) and the relations ' +
        'among them (edges). Filter by entity_types; limit is the number of nodes (default 100, at most ' +
        '1000).',
      input: graphInputSchema,
      output: graphOutputSchema,
      http: { method: 'GET', path: '/api/v1/knowledge/graph' },
      mcpTool: 'knowledge_graph',
      readOnly: true,
      toMarkdown: graphMarkdown,
      async handler(input, ctx) {
        const { nodes, edges } = await graphOf(ctx).subgraph(input.entity_types, input.limit);
        return {
          nodes: nodes.map((n) => ({ id: n.id, type: n.type, name: n.name, degree: n.degree })),
          edges: edges.map((e) => ({ from: e.from, to: e.to, type: e.type, weight: e.sources.length })),
        };
      },
    });

    const remove = defineCapability({
      id: 'knowledge.delete_entity',
      title: 'Delete an entity',
      description: 'Removes an entity from the knowledge graph with its relations and its alias entries.',
      input: entityInputSchema,
      output: deleteOutputSchema,
      http: { method: 'DELETE', path: '/api/v1/knowledge/entities/:entity_id' },
      mcpTool: 'knowledge_delete_entity',
      toMarkdown: (out) => `Deleted ${out.entity_id}.`,
      async handler(input, ctx) {
        if (!(await graphOf(ctx).remove(input.entity_id)))
          throw new AppError('NOT_FOUND', `no entity ${input.entity_id}`);
        return { deleted: true as const, entity_id: input.entity_id };
      },
    });

    return [extract, search, people, entity, graph, remove];
  },
});
