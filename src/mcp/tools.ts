/**
 * The MCP server's tools: the operations (src/operations/) under MCP names, with their input schemas (the VS Code
 * tools' own, package.json `contributes.languageModelTools`, without `account`: the server serves one account;
 * test/unit/mcpTools.test.ts checks they agree) and the annotations a host reads to decide what to ask the user
 * before a call (MCP's ToolAnnotations: readOnlyHint, destructiveHint, idempotentHint, openWorldHint). No `vscode`.
 *
 * English on purpose, not l10n.t: the titles, descriptions and schema descriptions here are read by the agent's model,
 * which is given them to choose a tool and fill its inputs (as package.json's `modelDescription`s are for the VS Code
 * tools); they are the tools' contract, and the server runs outside VS Code, with no display language to follow. A
 * host may show a title to its user, as it shows the tool's name: neither is translated.
 */
import type { OperationKey } from '../operations/answers';
import type { ToolWords } from '../operations/words';

/** How the answers name the MCP tools. */
export const MCP_TOOL_WORDS: ToolWords = { search: 'search_documents', read: 'read_document', templates: 'list_templates', projects: 'list_projects' };

export interface McpToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: boolean;
}

export interface McpTool {
  readonly key: OperationKey;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object'; readonly properties: Record<string, object>; readonly required?: readonly string[]; readonly additionalProperties: false };
  readonly annotations: McpToolAnnotations;
}

/** A tool that only reads: nothing on the server changes, whatever the input. The account is a closed world. */
function reads(title: string): McpToolAnnotations {
  return { title, readOnlyHint: true, openWorldHint: false };
}

/** A tool that changes the account: destructive when it replaces or removes what was there, idempotent when a repeat changes nothing more. */
function changes(title: string, destructive: boolean, idempotent: boolean): McpToolAnnotations {
  return { title, readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: false };
}

const ID = { type: 'integer', minimum: 1, description: 'The document id (from search_documents).' };
const SORT = { type: 'string', enum: ['newest', 'oldest', 'nameAsc', 'nameDesc'], default: 'newest', description: 'newest (default), oldest, nameAsc or nameDesc.' };
const LIMIT = { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'How many to return, 1–100 (default 10).' };

function schema(properties: Record<string, object>, required?: readonly string[]): McpTool['inputSchema'] {
  return { type: 'object', properties, ...(required ? { required } : {}), additionalProperties: false };
}

export const MCP_TOOLS: readonly McpTool[] = [
  {
    key: 'search',
    name: 'search_documents',
    title: 'Search Content Docs documents',
    description:
      "Searches the documents of the user's Content Docs account (an AI content service: blog posts, newsletters, product sheets and other texts, each written on a template). Finds documents whose name (or, with searchIn \"result\", whose text) contains the query, optionally on one template or among favorites only, newest first unless told otherwise. Returns up to `limit` documents with id, name, template, words, favorite, created and updated_at, and a short excerpt. Use read_document with an id for the whole text. Read-only.",
    inputSchema: schema({
      query: { type: 'string', description: 'Words the name (or the text, see searchIn) contains; case and accents do not matter. Omit to list every document.' },
      searchIn: { type: 'string', enum: ['name', 'result'], default: 'name', description: 'Search the documents\' names ("name", default) or their text ("result").' },
      template: { type: ['integer', 'string'], description: 'Only documents on this template: its id or its name (list_templates lists them).' },
      favoritesOnly: { type: 'boolean', default: false, description: 'Only the favorite documents.' },
      sort: SORT,
      limit: LIMIT,
    }),
    annotations: reads('Search documents'),
  },
  {
    key: 'read',
    name: 'read_document',
    title: 'Read a Content Docs document',
    description:
      "Reads one document of the user's Content Docs account by its id: its name, template, words, favorite, created and updated_at, and its whole text. Says whether the text is HTML (edited in the service's web app) or plain text. Keep its updated_at: update_document needs it. Read-only.",
    inputSchema: schema({ id: ID }, ['id']),
    annotations: reads('Read a document'),
  },
  {
    key: 'templates',
    name: 'list_templates',
    title: 'List Content Docs templates',
    description:
      "Lists the templates of the user's Content Docs account (ids and names): the 52 built-in ones (Freestyle, Blog post, Newsletter, Product sheet…) and the custom templates seen in the account's documents so far. A template labels the kind of text a document is. Read-only, sends no request.",
    inputSchema: schema({}),
    annotations: reads('List templates'),
  },
  {
    key: 'create',
    name: 'create_document',
    title: 'Create a Content Docs document',
    description:
      "Creates a document in the user's Content Docs account: the service's AI writes its text from the prompt (this can take tens of seconds) and the new document is saved there. Each creation counts toward the plan's monthly quota (one document and its words): ask the user first. Returns the new document with its text. The prompt goes to the service as one line (at most 2,048 characters); the template (an id, default 1 Freestyle) only labels the document, so put what to write in the prompt.",
    inputSchema: schema(
      {
        name: { type: 'string', maxLength: 128, description: "The new document's name (at most 128 characters)." },
        prompt: { type: 'string', maxLength: 2048, description: 'What the service should write (at most 2,048 characters, one line).' },
        template: { type: 'integer', minimum: 1, description: 'The template id (list_templates lists them); default 1 (Freestyle).' },
        creativity: {
          type: 'number',
          enum: [0, 0.25, 0.5, 0.75, 1],
          description: "0 (Repetitive), 0.25 (Deterministic), 0.5 (Original), 0.75 (Creative) or 1 (Imaginative); default the account's own.",
        },
      },
      ['name', 'prompt'],
    ),
    annotations: changes('Create a document', false, false),
  },
  {
    key: 'update',
    name: 'update_document',
    title: 'Change a Content Docs document',
    description:
      "Changes a document of the user's Content Docs account: its name, its text (result) and/or whether it is a favorite. Give the updated_at the document had when you read it (read_document or search_documents): the change is refused when the document changed since (in the web app, in VS Code, by another agent), so read it again then. The text replaces the whole text (at most 20,480 characters); keep HTML when the document's text is HTML.",
    inputSchema: schema(
      {
        id: ID,
        updated_at: { type: 'string', description: 'The updated_at the document had when you read it.' },
        name: { type: 'string', maxLength: 128, description: 'A new name.' },
        result: { type: 'string', maxLength: 20480, description: 'A new text, replacing the whole text.' },
        favorite: { type: 'boolean', description: 'true to add it to favorites, false to remove it.' },
      },
      ['id', 'updated_at'],
    ),
    // Replaces the text that was there; the same call again is refused (the document changed since): nothing more changes.
    annotations: changes('Change a document', true, true),
  },
  {
    key: 'delete',
    name: 'delete_document',
    title: 'Delete a Content Docs document',
    description: "Deletes a document of the user's Content Docs account by its id. Cannot be undone: ask the user first, naming the document.",
    inputSchema: schema({ id: ID }, ['id']),
    annotations: changes('Delete a document', true, true),
  },
  {
    key: 'deleteProject',
    name: 'delete_project',
    title: 'Delete a Content Docs SEO project',
    description:
      "Deletes an SEO project of the user's Content Docs account, with every report in it, by the project's name (list_projects lists them). Cannot be undone: ask the user first, naming the project.",
    inputSchema: schema({ project: { type: 'string', description: "The project's name." } }, ['project']),
    annotations: changes('Delete an SEO project', true, true),
  },
  {
    key: 'usage',
    name: 'get_plan_usage',
    title: 'Content Docs plan usage',
    description:
      "Tells the plan usage of the user's Content Docs account: words, documents and images used this month against the plan's limits, the totals, and the plan's name. Read-only.",
    inputSchema: schema({}),
    annotations: reads('Plan usage'),
  },
  {
    key: 'projects',
    name: 'list_projects',
    title: 'List Content Docs SEO projects',
    description:
      "Lists the SEO projects of the user's Content Docs account: each project's name, its number of reports, the average score of its reports (0–100) with the service's word for it (Good above 79, Decent above 49, else Bad) and when it was created. Optionally only names containing `search`. Read-only.",
    inputSchema: schema({ search: { type: 'string', description: 'Part of a project name.' }, sort: SORT, limit: LIMIT }),
    annotations: reads('List SEO projects'),
  },
];
