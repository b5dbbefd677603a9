import type { ContentDocument } from '../api/index';

/**
 * Whether two copies of a document agree on everything the extension shows or edits: name, text, favorite,
 * template, word count and last change. The one definition the document service (does a read reveal a
 * change?) and the Documents view (does a row need redrawing?) share.
 */
export function sameDocument(a: ContentDocument, b: ContentDocument): boolean {
  return (
    a.name === b.name &&
    a.favorite === b.favorite &&
    a.result === b.result &&
    a.updated_at === b.updated_at &&
    a.words === b.words &&
    a.template?.id === b.template?.id &&
    a.template?.name === b.template?.name
  );
}
