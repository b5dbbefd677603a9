/**
 * The environment variables the MCP server reads its account from (./config.ts). No import: the setup command and the
 * servers offered to VS Code's agents (./register.ts) take it too. A const enum: the builds write the names in place.
 */
export const enum ENV {
  documentsUrl = 'CONTENT_DOCS_DOCUMENTS_URL',
  projectsUrl = 'CONTENT_DOCS_PROJECTS_URL',
  key = 'CONTENT_DOCS_API_KEY',
}
