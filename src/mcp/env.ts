/** The environment variables the MCP server reads its account from (./config.ts). No import: the setup command takes it too. */
export const ENV = {
  documentsUrl: 'CONTENT_DOCS_DOCUMENTS_URL',
  projectsUrl: 'CONTENT_DOCS_PROJECTS_URL',
  key: 'CONTENT_DOCS_API_KEY',
} as const;
