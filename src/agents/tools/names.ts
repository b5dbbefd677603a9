/**
 * The language-model tools' names (package.json `contributes.languageModelTools`): what a model, and the @content
 * chat participant, call them by. Registered at activation; their work is in dist/tools.js (src/agents/tools/index.ts).
 */
export const TOOL_NAMES = {
  search: 'contentDocs_search_documents',
  read: 'contentDocs_read_document',
  templates: 'contentDocs_list_templates',
  create: 'contentDocs_create_document',
  update: 'contentDocs_update_document',
  delete: 'contentDocs_delete_document',
  deleteProject: 'contentDocs_delete_project',
  usage: 'contentDocs_get_plan_usage',
  projects: 'contentDocs_list_projects',
  backup: 'contentDocs_backup_account',
} as const;

export type ToolKey = keyof typeof TOOL_NAMES;

/** The key of a tool's name (register.ts registers them by name). */
export function toolKey(name: string): ToolKey {
  const key = (Object.keys(TOOL_NAMES) as ToolKey[]).find((k) => TOOL_NAMES[k] === name);
  if (!key) throw new Error(`Content Docs has no tool named ${name}.`);
  return key;
}
