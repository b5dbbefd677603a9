/**
 * Errors are recognised by their brand and kind, never by `instanceof ApiError`: the activation bundle, the
 * lazily loaded command and file-system bundles and the API bundle (dist/api.js) each carry their own copy of
 * src/api/errors.ts, so an error thrown by the API bundle is no instance of the class another bundle sees.
 * Checked here with a real other copy (the built dist/api.js) and with a structurally identical class.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ApiError, isApiError, isCancelled, isNotFound } from '../../src/api/errors';
import { describeError, errorKind, isCancellation } from '../../src/util/errors';

const BUNDLE = path.resolve(__dirname, '..', '..', '..', 'dist', 'api.js');

/** The same class as src/api/errors.ts, as another bundle's copy of it would be: same shape, another identity. */
class OtherBundleApiError extends Error {
  override readonly name = 'ApiError';
  readonly isApiError = true;
  readonly retryAfter?: number;
  constructor(
    readonly kind: ApiError['kind'],
    message: string,
    details: { retryAfter?: number } = {},
  ) {
    super(message);
    this.retryAfter = details.retryAfter;
  }
}

function assertRecognised(make: (kind: ApiError['kind'], message: string) => Error): void {
  const notFound = make('notFound', 'Not found on the server (HTTP 404): it may have been deleted.');
  assert.equal(notFound instanceof ApiError, false, 'not an instance of this copy of ApiError (else this test proves nothing)');
  assert.ok(isApiError(notFound));
  assert.equal(errorKind(notFound), 'notFound');
  assert.ok(isNotFound(notFound));
  assert.equal(describeError("Couldn't delete \"Q3 plan\"", notFound), 'Couldn\'t delete "Q3 plan": not found on the server (HTTP 404): it may have been deleted.');

  const cancelled = make('cancelled', 'The request was cancelled.');
  assert.ok(isCancelled(cancelled));
  assert.ok(isCancellation(cancelled));
  assert.equal(errorKind(cancelled), 'cancelled');
  assert.equal(isCancellation(make('timeout', 'The server did not answer within 30 seconds.')), false);
}

describe('errors are recognised by kind across bundles', () => {
  it('an ApiError from the built API bundle (its own copy of the class)', () => {
    assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} is missing: build first (npm run build)`);
    const Other = (createRequire(__filename)(BUNDLE) as { ApiError: typeof ApiError }).ApiError;
    assert.notEqual(Other, ApiError);
    assertRecognised((kind, message) => new Other(kind, message));
  });

  it('a structurally identical class', () => {
    assertRecognised((kind, message) => new OtherBundleApiError(kind, message));
  });

  it('an error without the brand has no kind, whatever fields it carries', () => {
    const lookalike = Object.assign(new Error('Not found'), { kind: 'notFound', status: 404 });
    assert.equal(isApiError(lookalike), false);
    assert.equal(errorKind(lookalike), undefined);
    assert.equal(isNotFound(lookalike), false);
    assert.equal(errorKind({ kind: 'cancelled' }), undefined);
    assert.equal(errorKind(undefined), undefined);
    assert.equal(errorKind('notFound'), undefined);
    // VS Code's own cancellation (a CancellationError) is a cancellation too.
    assert.ok(isCancellation(Object.assign(new Error('Canceled'), { name: 'Canceled' })));
  });
});
