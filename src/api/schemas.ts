import { z } from 'zod';

/**
 * Response shapes, parsed at the boundary. Tolerant by design: unknown fields are ignored,
 * optional fields may be missing, `template` may be `[]` and `result` may be `null`.
 */

const id = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);
const bool = z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')]).transform((v) => v === true || v === 1 || v === '1');
const timestamp = z.string().nullish().transform((v) => v ?? undefined);

const templateRef = z
  .union([z.object({ id, name: z.string().nullish() }), z.array(z.unknown()).max(0), z.null()])
  .optional()
  .transform((t) => (t && !Array.isArray(t) ? { id: t.id, name: t.name ?? undefined } : undefined));

export const documentSchema = z
  .object({
    id,
    name: z.string().nullish(),
    template: templateRef,
    result: z.string().nullish(),
    words: z.number().nullish(),
    favorite: bool.nullish(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .transform((d) => ({
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
  }));
export type ContentDocument = z.output<typeof documentSchema>;

export const projectSchema = z
  .object({
    project: z.string(),
    reports: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
    result: z.union([z.number(), z.string()]).nullish(),
    created_at: timestamp,
  })
  .transform((p) => {
    const n = typeof p.result === 'string' ? Number(p.result) : p.result;
    return {
      project: p.project,
      reports: p.reports ?? 0,
      result: typeof n === 'number' && Number.isFinite(n) ? n : undefined,
      created_at: p.created_at,
    };
  });
export type Project = z.output<typeof projectSchema>;

const meta = z
  .object({
    current_page: z.number().nullish(),
    last_page: z.number().nullish(),
    per_page: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
    total: z.number().nullish(),
  })
  .partial();

export interface PageEnvelope<T> {
  data: T[];
  links?: { next?: string | null } | null;
  meta?: { current_page?: number | null; last_page?: number | null; per_page?: number | null; total?: number | null } | null;
}

export function pageSchema<T>(item: z.ZodType<T>): z.ZodType<PageEnvelope<T>> {
  return z.object({
    data: z.array(item),
    links: z.object({ next: z.string().nullish() }).partial().nullish(),
    meta: meta.nullish(),
  }) as unknown as z.ZodType<PageEnvelope<T>>;
}

/** `{"data": record}`, or a bare record from a server that does not wrap it. */
export function recordSchema<T>(item: z.ZodType<T>): z.ZodType<T> {
  const wrapped = z.object({ data: item }).transform((e) => (e as { data: T }).data);
  return z.union([wrapped, item]) as unknown as z.ZodType<T>;
}

/** A deletion confirmation: `deleted: true`, or (an older server) no `deleted` but the echoed `id`. Anything else is not one. */
export const deletedSchema = z
  .object({ deleted: z.boolean().optional(), id: z.unknown().optional() })
  .passthrough()
  .refine((d) => d.deleted === true || (d.deleted === undefined && d.id !== undefined && d.id !== null), {
    message: 'not a confirmation of the deletion',
  });

export const accountSchema = z.object({ data: z.record(z.string(), z.unknown()).optional() }).passthrough();

/** Error body: `message` is a string, or (422) an object of field -> messages. */
export const errorBodySchema = z.object({
  message: z.union([z.string(), z.record(z.string(), z.union([z.array(z.string()), z.string()]))]).optional(),
  errors: z.record(z.string(), z.union([z.array(z.string()), z.string()])).optional(),
});

export type ZodSchema<T> = z.ZodType<T>;
