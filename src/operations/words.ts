/**
 * How a front end names its tools to a model: the answers and refusals of the operations point to the tool that
 * reads, searches or lists (`Read it again with contentRead`). No `vscode` import.
 */
export interface ToolWords {
  readonly search: string;
  readonly read: string;
  readonly templates: string;
  readonly projects: string;
}

/** The VS Code language-model tools, by their reference names (package.json `toolReferenceName`). */
export const VSCODE_TOOL_WORDS: ToolWords = { search: 'contentSearch', read: 'contentRead', templates: 'contentTemplates', projects: 'contentProjects' };
