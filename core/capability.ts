/**
 * A capability is declared once and served by every host: as an MCP tool and
 * as an /api/v1 route. The core validates input against `input` (zod, no
 * coercion) before the handler runs, identically for both hosts.
 */
import type { z } from 'zod';
import type { Logger } from './logger.js';
import type { Principal } from './principal.js';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallContext {
  /** Aborted when the caller cancels (MCP cancel, HTTP client disconnect) or the server shuts down. */
  signal: AbortSignal;
  /**
   * Whether the call is cancelled already, for a host whose signal is made on first use (HTTP):
   * asking this does not make it. Absent, signal.aborted says.
   */
  cancelled?(): boolean;
  logger: Logger;
  /** Reports progress of long work (MCP progress notifications, job status). */
  progress(update: Progress): void;
  /** Which host the call came through. */
  host: 'http' | 'mcp' | 'cli' | 'job';
  /** Base URL the HTTP host is reachable at, when known (for status URLs). */
  baseUrl?: string;
  /**
   * Who the call acts for (core/principal.ts): over HTTP the API key's principal
   * (a digest of the key, or its group), over stdio MCP the local admin, in a job
   * the job's owner. Durable resources are owned by it and scoped to it; absent,
   * the call owns nothing and sees nothing owned.
   */
  caller?: Principal;
}

/** A field name an HTTP client may send instead of the declared one (older SDKs' names). */
export interface HttpFieldAlias {
  /** The declared input field the alias stands for. */
  field: string;
  /** Turns the alias's value into the field's value; absent means the value is taken as it is. */
  map?(value: unknown): { value: unknown } | { ignore: true };
}

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** A durable job as hosts see it (the job service's records carry these fields and more). */
export interface JobSnapshot {
  id: string;
  kind: string;
  status: 'queued' | 'processing' | 'completed' | 'failed';
  progress?: Progress;
  result?: unknown;
  error?: { code: string; message: string };
  createdAt: string;
  updatedAt: string;
}

/**
 * Set by the job surface (services/jobs/job-capability.ts) on every capability whose work runs as a
 * durable job and on the capability that reads such a job's status, the same object on both: what a
 * host needs to treat every job alike (submit, read, cancel) without knowing the area.
 */
export interface CapabilityJob {
  kind: string;
  /** The capability that reads this kind's status, and the field of its input naming the job. */
  statusCapability: string;
  idField: string;
  /** Whether this validated input of the submitting capability runs as a job rather than being answered at once. */
  runsAsJob(capabilityId: string, input: unknown): boolean;
  /** Submits validated input of the submitting capability as a job (its checks first), without waiting for it. */
  submit(capabilityId: string, input: unknown, ctx: CallContext): Promise<JobSnapshot>;
  /** The job; NOT_FOUND when no job of this kind has that id for this caller. */
  read(jobId: string, ctx: CallContext): Promise<JobSnapshot>;
  /** Asks the job to stop (see read for NOT_FOUND); answers it as it will end. */
  cancel(jobId: string, ctx: CallContext): Promise<JobSnapshot>;
  /**
   * A completed job, as read (by `read` or the job service for this caller), answered as the submitting
   * capability answers when it waits the job out (its output schema): no second read of the record.
   */
  answer(job: JobSnapshot, ctx: CallContext): Promise<unknown>;
}

/**
 * A read-only capability whose answer is also an MCP resource: context an agent attaches (a corpus,
 * a monitor's results, a graph entity) rather than an action it takes. The URI template's variables
 * are the capability's input fields, so reading the resource is calling the capability, with its
 * checks (ownership included).
 */
export interface McpResource {
  /** RFC 6570 simple template under quarry://, e.g. "quarry://corpora/{corpus_id}"; one variable per path segment. */
  uriTemplate: string;
  /** The template's short name, e.g. "corpus". */
  name: string;
  title: string;
  description: string;
  /** How the caller's concrete resources are found: a listing capability and its output as template variables. */
  list?: {
    capability: string;
    items(output: unknown): Array<{ variables: Record<string, string>; name: string; title?: string }>;
  };
}

export interface CapabilityDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** "<area>.<action>", e.g. "search.web". */
  id: string;
  title: string;
  /** What it does, written for an agent choosing a tool. */
  description: string;
  input: I;
  output: O;
  http: {
    method: HttpMethod;
    /** Full path, e.g. "/api/v1/search/"; path parameters as ":name". */
    path: string;
    /** Status of a successful answer; default 200. */
    status?: number;
    /** Further paths the HTTP host serves the capability at (same parameters); not listed in the OpenAPI document. */
    aliases?: string[];
    /** Answers that only acknowledge accepted work (async jobs): sent as 202 Accepted, documented with this schema. */
    accepted?: { output: z.ZodType; is(output: unknown): boolean };
    /** Body fields accepted over HTTP under another name; MCP tool schemas stay strict. */
    fieldAliases?: Record<string, HttpFieldAlias>;
    /**
     * The HTTP answer is this field of the output rather than the whole of it: for
     * routes the spec answers with a bare array. MCP structured content must be an
     * object, so MCP gets the whole output ({ <field>: [...] }).
     */
    answerField?: string;
    /**
     * A GET capability that also answers POST with an application/x-www-form-urlencoded
     * body, as services built for HTML forms do (SearXNG); form fields are read like
     * query parameters, and an empty body is allowed whatever Content-Type says.
     */
    formPost?: boolean;
    /**
     * The path parameter (in an alias) that carries a key for tools that can only be given
     * a URL: it is checked against the URL keys (config urlKeys, off when empty) instead
     * of the API key headers, redacted from the logs, and is not part of the input.
     */
    urlKeyParam?: string;
    /**
     * The whole HTTP error answer, for a wire format whose `error` is a string (Firecrawl); every failure on its
     * routes, key check included.
     */
    errorReply?(error: { code: string; message: string; details?: unknown; status: number }): {
      status: number;
      body: Record<string, unknown>;
    };
    /**
     * Also a WebSocket on the GET route (Firecrawl's crawl watcher): input as for a request, each value yielded sent
     * as JSON text, then the socket closed with the text the stream returns as the reason.
     */
    websocket?(input: unknown, ctx: CallContext): AsyncGenerator<unknown, string | undefined>;
  };
  /**
   * MCP tool name, snake_case "<area>_<action>", within ^[a-z][a-z0-9_]{0,63}$. Absent: the
   * capability is served over HTTP only — a surface that mimics another service's wire
   * format for tools that speak it, where a tool would repeat one agents already have.
   */
  mcpTool?: string;
  /** Also served as an MCP resource (read-only capabilities only). */
  mcpResource?: McpResource;
  /** Present when the capability submits a job or reads one (see CapabilityJob). */
  job?: CapabilityJob;
  /** Read-only capabilities are safe to retry (MCP annotation). */
  readOnly?: boolean;
  /**
   * The handler never changes its input: calls with the same raw input may share one validated,
   * deep-frozen value instead of validating again (core/input-memo.ts).
   */
  sharedInput?: boolean;
  /**
   * Extra top-level fields for this capability's HTTP error bodies, beside Quarry's own `error`
   * object — for routes that mimic another service's wire format, whose clients read the error
   * from elsewhere (Tavily's clients read `detail.error`). Applies to every failure the registry
   * sees, validation included.
   */
  errorBody?(error: { code: string; message: string }): Record<string, unknown>;
  /** Renders the output as markdown for agents; a JSON dump is used when absent. */
  toMarkdown?(output: z.infer<O>): string;
  handler(input: z.infer<I>, ctx: CallContext): Promise<z.infer<O>>;
}

export type AnyCapability = CapabilityDefinition<z.ZodType, z.ZodType>;

export function defineCapability<I extends z.ZodType, O extends z.ZodType>(
  definition: CapabilityDefinition<I, O>,
): CapabilityDefinition<I, O> {
  return definition;
}
