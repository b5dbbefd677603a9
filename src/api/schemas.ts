import * as z from 'zod/mini';

/**
 * Response shapes, parsed at the boundary. Tolerant by design: unknown fields are ignored,
 * optional fields may be missing, `template` may be `[]` and `result` may be `null`.
 *
 * zod's tree-shakable `zod/mini` API: the same parser as `zod` at a twentieth of the bundle (about
 * 25 KB against 450 KB minified), which is what the first request pays for in `require()` time.
 */

export type ZodSchema<T> = z.ZodMiniType<T>;

export interface PageEnvelope<T> {
  data: T[];
  links?: { next?: string | null } | null;
  meta?: { current_page?: number | null; last_page?: number | null; per_page?: number | null; total?: number | null } | null;
}

/** Words, documents and images: a count, or a plan limit (`-1`: unlimited). Missing on older servers. */
export interface UsageFigures {
  words?: number;
  documents?: number;
  images?: number;
}

/** GET /account, typed: the plan, this month's and all-time usage, and the user's defaults. Every part may be missing. */
export interface AccountInfo {
  /** The user's id on this server (what tells one account from another there, e.g. a backup folder's owner). */
  id?: number;
  name?: string;
  email?: string;
  plan?: { id?: number; name?: string };
  limits: UsageFigures;
  month: UsageFigures;
  total: UsageFigures;
  /** The creativity the user prefers for new documents (0…1). */
  defaultCreativity?: number;
  /** The language the user writes in by default (e.g. `en`). */
  defaultLanguage?: string;
}

/**
 * Builds every response schema. Called once (schemas()): on the first answer, or earlier while the session's
 * first request waits for its answer (HttpClient), so building them is not on the first answer's critical path.
 */
function build() {
  const digits = z.pipe(z.string().check(z.regex(/^\d+$/)), z.transform(Number));
  const id = z.union([z.int(), digits]);
  const bool = z.pipe(
    z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')]),
    z.transform((v) => v === true || v === 1 || v === '1'),
  );
  const timestamp = z.pipe(
    z.nullish(z.string()),
    z.transform((v) => v ?? undefined),
  );

  const templateRef = z.pipe(
    z.optional(z.union([z.object({ id, name: z.nullish(z.string()) }), z.array(z.unknown()).check(z.maxLength(0)), z.null()])),
    z.transform((t) => (t && !Array.isArray(t) ? { id: t.id, name: t.name ?? undefined } : undefined)),
  );

  const documentSchema = z.pipe(
    z.object({
      id,
      name: z.nullish(z.string()),
      template: templateRef,
      result: z.nullish(z.string()),
      words: z.nullish(z.number()),
      favorite: z.nullish(bool),
      created_at: timestamp,
      updated_at: timestamp,
    }),
    z.transform((d) => ({
      id: d.id,
      name: d.name ?? '',
      template: d.template,
      /** `null` on the server (generation produced nothing) reads as empty text. */
      result: d.result ?? '',
      resultIsNull: d.result === null || d.result === undefined,
      words: d.words ?? 0,
      favorite: d.favorite ?? false,
      created_at: d.created_at,
      updated_at: d.updated_at,
    })),
  );

  const projectSchema = z.pipe(
    z.object({
      project: z.string(),
      reports: z.nullish(z.union([z.number(), digits])),
      result: z.nullish(z.union([z.number(), z.string()])),
      created_at: timestamp,
    }),
    z.transform((p) => {
      const n = typeof p.result === 'string' ? Number(p.result) : p.result;
      return {
        project: p.project,
        reports: p.reports ?? 0,
        result: typeof n === 'number' && Number.isFinite(n) ? n : undefined,
        created_at: p.created_at,
      };
    }),
  );

  const meta = z.object({
    current_page: z.nullish(z.number()),
    last_page: z.nullish(z.number()),
    per_page: z.nullish(z.union([z.number(), digits])),
    total: z.nullish(z.number()),
  });



  function pageSchema<T>(item: ZodSchema<T>): ZodSchema<PageEnvelope<T>> {
    return z.object({
      data: z.array(item),
      links: z.nullish(z.object({ next: z.nullish(z.string()) })),
      meta: z.nullish(meta),
    });
  }

  /** `{"data": record}`, or a bare record from a server that does not wrap it. */
  function recordSchema<T>(item: ZodSchema<T>): ZodSchema<T> {
    const wrapped = z.pipe(
      z.object({ data: item }),
      z.transform((e) => (e).data),
    );
    return z.union([wrapped, item]);
  }

  /** A deletion confirmation: `deleted: true`, or (an older server) no `deleted` but the echoed `id`. Anything else is not one. */
  const deletedSchema = z.looseObject({ deleted: z.optional(z.boolean()), id: z.optional(z.unknown()) }).check(
    z.refine((d) => d.deleted === true || (d.deleted === undefined && d.id !== undefined && d.id !== null), {
      message: 'not a confirmation of the deletion',
    }),
  );

  const accountSchema = z.looseObject({ data: z.optional(z.record(z.string(), z.unknown())) });

  /** A counter or a limit: a number (or digits); anything else, or nothing, reads as unknown. */
  const figure = z.catch(
    z.pipe(
      z.nullish(z.union([z.number(), digits])),
      z.transform((v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)),
    ),
    undefined,
  );
  const text = z.catch(
    z.pipe(
      z.nullish(z.string()),
      z.transform((v) => v ?? undefined),
    ),
    undefined,
  );

  const accountRecord = z.pipe(
    z.looseObject({
      id: figure,
      name: text,
      email: text,
      plan: z.catch(
        z.nullish(z.looseObject({ id: figure, name: text, features: z.catch(z.nullish(z.looseObject({ words: figure, documents: figure, images: figure })), undefined) })),
        undefined,
      ),
      default_creativity: figure,
      default_language: text,
      documents_month_count: figure,
      documents_total_count: figure,
      words_month_count: figure,
      words_total_count: figure,
      images_month_count: figure,
      images_total_count: figure,
    }),
    z.transform((a): AccountInfo => {
      const f = a.plan?.features ?? undefined;
      return {
        id: a.id,
        name: a.name,
        email: a.email,
        plan: a.plan ? { id: a.plan.id, name: a.plan.name } : undefined,
        limits: { words: f?.words, documents: f?.documents, images: f?.images },
        month: { words: a.words_month_count, documents: a.documents_month_count, images: a.images_month_count },
        total: { words: a.words_total_count, documents: a.documents_total_count, images: a.images_total_count },
        defaultCreativity: a.default_creativity,
        defaultLanguage: a.default_language,
      };
    }),
  );




  const fieldMessages = z.record(z.string(), z.union([z.array(z.string()), z.string()]));

  /** Error body: `message` is a string, or (422) an object of field -> messages. */
  const errorBodySchema = z.object({
    message: z.optional(z.union([z.string(), fieldMessages])),
    errors: z.optional(fieldMessages),
  });

  return {
    documentList: pageSchema(documentSchema),
    documentOne: recordSchema(documentSchema),
    projectList: pageSchema(projectSchema),
    deleted: deletedSchema,
    account: accountSchema,
    accountInfo: recordSchema(accountRecord),
    errorBody: errorBodySchema,
  };
}

export type Schemas = ReturnType<typeof build>;
let built: Schemas | undefined;
let prepared: boolean | undefined;

/** The response schemas, built on first use. */
export function schemas(): Schemas {
  return (built ??= build());
}

/** Rows in each sample page of prepareSchemas: the views' default page size. */
const SAMPLE_ROWS = 50;

/**
 * Builds the schemas and runs each list parser on a full sample page: zod generates an object's parser on its first
 * use, and V8 compiles a function's code only after it ran a number of times, so after a one-row sample the first
 * real page still took about fifteen times the parse of the next (measured in Node 24, 50 documents: 10–14 ms against
 * 0.7 ms; 5 ms after these pages, which take about 6 ms more of the wait). Called while the session's first request
 * waits for its answer (HttpClient), so the answer's parse finds them ready. True when every sample parsed.
 */
export function prepareSchemas(): boolean {
  // Once a process: every client (a key check's too) calls this in its first wait.
  if (prepared !== undefined) return prepared;
  const s = schemas();
  const at = '2024-01-01T00:00:00.000000Z';
  const page = <T>(row: (i: number) => T) => ({ data: Array.from({ length: SAMPLE_ROWS }, (_, i) => row(i)), links: { next: null }, meta: { total: SAMPLE_ROWS, current_page: 1, last_page: 1, per_page: SAMPLE_ROWS } });
  return (prepared = [
    s.documentList.safeParse(
      page((i) => ({ id: i + 1, name: 'n', template: i % 2 ? { id: 1, name: 't' } : [], result: i % 3 ? 'r' : null, words: i, favorite: i % 2 === 0, created_at: at, updated_at: at })),
    ),
    s.projectList.safeParse(page((i) => ({ project: 'p', reports: i, result: i % 2 ? i : String(i), created_at: at }))),
    s.accountInfo.safeParse({ data: {} }),
  ].every((r) => r.success));
}

export type ContentDocument = z.output<Schemas['documentOne']>;
export type Project = z.output<Schemas['projectList']>['data'][number];
