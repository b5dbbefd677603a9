import type { ContentApi, Page, Project, ProjectListQuery } from '../api/index';

/** The projects API as the views and commands use it: the client for the current settings and key. */
export interface ProjectsClientSource {
  get(): Pick<ContentApi, 'listProjects' | 'deleteProject'>;
}

/** The one way to read and delete projects (the Projects view's model reads through it). No `vscode`. */
export class ProjectService {
  constructor(private readonly api: ProjectsClientSource) {}

  /** One page of projects (one request). */
  list(query: ProjectListQuery, signal?: AbortSignal): Promise<Page<Project>> {
    return this.api.get().listProjects(query, signal);
  }

  /** Deletes a project and every report in it (one request). */
  delete(name: string, signal?: AbortSignal): Promise<void> {
    return this.api.get().deleteProject(name, signal);
  }
}
