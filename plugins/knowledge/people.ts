/**
 * People search: persons found by name, alias and meaning, plus the people
 * around matching organisations and topics; each with a title (from
 * appositions and titles in the text, else the role its relations imply),
 * an organisation (its strongest leads / founded / works_for relation),
 * expertise (what it is mentioned with) and recent activity (its sources,
 * newest first).
 */
import type { EdgeRecord, EntityRecord } from './graph/types.js';
import type { KnowledgeService } from './service/knowledge-service.js';
import { topTitle } from './views.js';

export interface PeopleInput {
  query: string;
  organization?: string | undefined;
  role?: string | undefined;
  max_results: number;
}

const ROLE_EDGES = { leads: 'leader', founded: 'founder', works_for: null } as const;
const ROLE_PRIORITY = ['leads', 'founded', 'works_for'] as const;

interface Candidate {
  id: string;
  score: number;
}

export async function findPeople(knowledge: KnowledgeService, input: PeopleInput, signal: AbortSignal) {
  const candidates = new Map<string, Candidate>();
  const offer = (id: string, score: number) => {
    const current = candidates.get(id);
    if (!current || score > current.score) candidates.set(id, { id, score });
  };
  for (const hit of await knowledge.search(input.query, ['person'], 200, signal)) offer(hit.entity.id, hit.score);
  const around = await knowledge.search(
    input.query,
    ['organization', 'product', 'technology', 'event', 'work'],
    20,
    signal,
  );
  for (const hit of around) {
    for (const edge of await knowledge.relationsAround([hit.entity.id])) {
      const other = edge.from === hit.entity.id ? edge.to : edge.from;
      offer(other, hit.score * 0.8);
    }
  }
  const records = await knowledge.entities([...candidates.keys()]);
  const people = [];
  for (const { id, score } of [...candidates.values()].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))) {
    const person = records.get(id);
    if (person?.type !== 'person') continue;
    const roles = (await knowledge.relationsAround([id])).filter((e) => e.from === id && e.type in ROLE_EDGES);
    const orgs = await knowledge.entities(roles.map((e) => e.to));
    const organization = strongestOrganization(roles, orgs);
    const impliedRole = organization ? ROLE_EDGES[organization.edge.type as keyof typeof ROLE_EDGES] : null;
    const title = topTitle(person) ?? impliedRole;
    if (input.organization && !matchesOrganization(input.organization, person, roles, orgs)) continue;
    if (input.role && !matchesRole(input.role, person, roles)) continue;
    const orgNames = new Set([...orgs.values()].flatMap((o) => o.aliases.map((a) => a.toLowerCase())));
    const own = new Set(person.aliases.map((a) => a.toLowerCase()));
    people.push({
      id: person.id,
      name: person.name,
      title,
      organization: organization?.entity.name ?? null,
      email: null,
      expertise: Object.entries(person.topics)
        .filter(([topic]) => !orgNames.has(topic.toLowerCase()) && !own.has(topic.toLowerCase()))
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 5)
        .map(([topic]) => topic),
      recent_activity: [...person.sources]
        .sort((a, b) => b.date.localeCompare(a.date))
        .slice(0, 5)
        .map((s) => ({ date: s.date, title: s.title, url: s.url, snippet: s.snippet })),
      relevance_score: score,
    });
    if (people.length >= input.max_results) break;
  }
  return { people, query: input.query };
}

function strongestOrganization(
  roles: EdgeRecord[],
  orgs: Map<string, EntityRecord>,
): { entity: EntityRecord; edge: EdgeRecord } | null {
  const ranked = roles
    .filter((e) => orgs.get(e.to)?.type === 'organization')
    .sort(
      (a, b) =>
        b.sources.length - a.sources.length ||
        ROLE_PRIORITY.indexOf(a.type as (typeof ROLE_PRIORITY)[number]) -
          ROLE_PRIORITY.indexOf(b.type as (typeof ROLE_PRIORITY)[number]),
    );
  const edge = ranked[0];
  return edge ? { entity: orgs.get(edge.to)!, edge } : null;
}

function matchesOrganization(
  wanted: string,
  person: EntityRecord,
  roles: EdgeRecord[],
  orgs: Map<string, EntityRecord>,
): boolean {
  const needle = wanted.toLowerCase();
  for (const edge of roles) if (orgs.get(edge.to)?.aliases.some((a) => a.toLowerCase().includes(needle))) return true;
  return (
    Object.keys(person.titles).some((t) => t.toLowerCase().includes(needle)) ||
    person.description.toLowerCase().includes(needle)
  );
}

function matchesRole(wanted: string, person: EntityRecord, roles: EdgeRecord[]): boolean {
  const needle = wanted.toLowerCase();
  if (Object.keys(person.titles).some((t) => t.toLowerCase().includes(needle))) return true;
  return roles.some(
    (e) => (ROLE_EDGES[e.type as keyof typeof ROLE_EDGES] ?? '').includes(needle) || e.type.includes(needle),
  );
}
