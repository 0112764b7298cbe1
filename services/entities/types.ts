/**
 * The closed lists of the knowledge graph: entity types and relation types,
 * and what one text yields before it meets the graph (an Extraction).
 */
export const ENTITY_TYPES = ['person', 'organization', 'location', 'product', 'technology', 'event', 'work'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Accepted in requests as another name for a type ("company" is the spec's word for organization). */
export const ENTITY_TYPE_ALIASES: Record<string, EntityType> = {
  company: 'organization',
  org: 'organization',
  place: 'location',
};

export const RELATION_TYPES = [
  'leads',
  'founded',
  'works_for',
  'developed',
  'acquired',
  'invested_in',
  'partnered_with',
  'competes_with',
  'part_of',
  'located_in',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Relations that read the same both ways; stored once, from the smaller id. */
export const SYMMETRIC_RELATIONS: ReadonlySet<RelationType> = new Set(['partnered_with', 'competes_with']);

/** How two names were found to be one entity, recorded in its metadata. */
export type MergeRule =
  | 'same-name'
  | 'designator'
  | 'short-form'
  | 'surname'
  | 'acronym'
  | 'parenthetical'
  | 'alias-index'
  /** The language model said the two names are one entity. */
  | 'model-alias';

export interface ExtractedEntity {
  /** Key of the entity within this text (its canonical alias key). */
  key: string;
  type: EntityType;
  /** The fullest name the text uses. */
  name: string;
  description: string;
  /** Every surface form the text used. */
  mentions: string[];
  /** Why other surface forms were folded into this one. */
  merges: Array<{ alias: string; rule: MergeRule }>;
  /** Person attributes from appositions and titles ("CEO", "professor"). */
  title?: string;
  /** The first sentence mentioning the entity (people's recent activity). */
  snippet: string;
  /** Names of entities mentioned in the same sentences (a person's expertise). */
  cooccurring: string[];
}

export interface ExtractedRelation {
  from: string;
  to: string;
  type: RelationType;
  /** The words that signalled the relation. */
  cue: string;
  /** The sentence that states it (offline tagger), or the model's quote. */
  evidence?: string;
}

export interface Extraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
}
