/**
 * A request that got no answer, in plain words: refused, unresolved, reset, a proxy that cannot be reached, and a
 * certificate that cannot be verified (which names the server and says what to do: install the authority in the
 * system's store and reload the window, or set the proxy; never to turn verification off). Shared by every
 * transport (the names are Node's and OpenSSL's, as undici, Node's https and Node's fetch report them). No Node
 * import: the browser build carries it too.
 */
import { ApiError } from './errors';
import { SendFailure } from './transport';
import { l10n } from '../util/l10n';

/** OpenSSL's verification results, as Node names them, for a certificate whose issuer is not trusted here. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);
const WRONG_NAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);
/** The other verification failures: a certificate these words cannot say more of. */
const UNVERIFIED = new Set([
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'ERR_TLS_CERT_ALTNAME_FORMAT',
]);
/** An answer that is no TLS at all: a plain-HTTP server on that port, or something in between answering for it. */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST', 'EPROTO']);

const install = () =>
  l10n.t("If your organization has its own certificate authority, or its network inspects HTTPS, install that authority in the system's certificate store, then reload the window.");
const proxySetting = () => l10n.t('If your network reaches servers through a proxy, set it in VS Code\'s "http.proxy" setting.');

/** The first error code found on an error, its cause, or the first of an AggregateError's errors (a few levels deep). */
export function errorCode(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== 'object' || depth > 4) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && code) return code;
  const errors = (e as { errors?: unknown }).errors;
  return errorCode((e as { cause?: unknown }).cause, depth + 1) ?? (Array.isArray(errors) ? errorCode(errors[0], depth + 1) : undefined);
}

/** Whether a code is a certificate that could not be verified (and not a connection problem). */
export function isCertificateCode(code: string | undefined): boolean {
  return !!code && (UNTRUSTED.has(code) || WRONG_NAME.has(code) || UNVERIFIED.has(code) || code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID' || code === 'CERT_REVOKED');
}

/**
 * A proxy as the host named it (`PROXY user:secret@host:3128; DIRECT`, a PAC file's answer): its address only,
 * `host:port`, with the scheme for other kinds (`SOCKS host:1080`); undefined for a direct connection.
 */
export function proxyAddress(resolved: unknown): string | undefined {
  if (typeof resolved !== 'string') return undefined;
  const [type, target] = resolved.trim().split(';')[0].trim().split(/\s+/);
  if (!target || !type || /^direct$/i.test(type)) return undefined;
  const address = target.replace(/^[^@/]*@/, '');
  return /^(proxy|http)$/i.test(type) ? address : `${type.toUpperCase()} ${address}`;
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return l10n.t('the server');
  }
}

/** A proxy that could not be reached, and how. */
function proxyWords(proxy: string, code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return l10n.t('Could not connect to the proxy {0}: the connection was refused.', proxy);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return l10n.t('Could not connect to the proxy {0}: its name could not be resolved.', proxy);
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return l10n.t('Could not connect to the proxy {0}: the connection timed out.', proxy);
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return l10n.t('Could not connect to the proxy {0}: the connection was closed.', proxy);
    default:
      return code
        ? l10n.t('Could not connect to the proxy {0}: the connection failed ({1}).', proxy, code)
        : l10n.t('Could not connect to the proxy {0}: the connection failed.', proxy);
  }
}

/** A server that could not be reached, and how (through a proxy, when one was used). */
function reachWords(code: string | undefined, proxy: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return proxy
        ? l10n.t('Could not reach the server (through the proxy {0}): the connection was refused (is the server running?).', proxy)
        : l10n.t('Could not reach the server: the connection was refused (is the server running?).');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return proxy
        ? l10n.t('Could not reach the server (through the proxy {0}): the server name could not be resolved.', proxy)
        : l10n.t('Could not reach the server: the server name could not be resolved.');
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return proxy
        ? l10n.t('Could not reach the server (through the proxy {0}): the connection was closed before the answer was complete.', proxy)
        : l10n.t('Could not reach the server: the connection was closed before the answer was complete.');
    default:
      if (code) {
        return proxy
          ? l10n.t('Could not reach the server (through the proxy {0}): the network request failed ({1}).', proxy, code)
          : l10n.t('Could not reach the server: the network request failed ({0}).', code);
      }
      return proxy
        ? l10n.t('Could not reach the server (through the proxy {0}): the network request failed.', proxy)
        : l10n.t('Could not reach the server: the network request failed.');
  }
}

/** A certificate that could not be verified: what it was and what to do. */
function certificateFailure(code: string, url: string, cause: unknown): ApiError {
  const server = origin(url);
  let message: string;
  if (UNTRUSTED.has(code)) {
    message = `${l10n.t("The certificate of {0} is not trusted: the authority that issued it is not in the system's certificate store ({1}).", server, code)} ${install()} ${proxySetting()}`;
  } else if (WRONG_NAME.has(code)) {
    message = l10n.t(
      "The certificate of {0} is issued for another name ({1}). Check the server address in the settings (use the name its certificate is issued for), or ask the server's administrator.",
      server,
      code,
    );
  } else if (code === 'CERT_HAS_EXPIRED') {
    message = l10n.t(
      "The certificate of {0} has expired ({1}): the server's administrator must renew it. If it has not expired, check the date and time of this computer.",
      server,
      code,
    );
  } else if (code === 'CERT_NOT_YET_VALID') {
    message = l10n.t("The certificate of {0} is not valid yet ({1}): check the date and time of this computer, or ask the server's administrator.", server, code);
  } else if (code === 'CERT_REVOKED') {
    message = l10n.t("The certificate of {0} was revoked by its authority ({1}): ask the server's administrator.", server, code);
  } else {
    message = `${l10n.t('The certificate of {0} could not be verified ({1}).', server, code)} ${install()} ${proxySetting()}`;
  }
  return new ApiError('certificate', message, { code, cause });
}

/**
 * A request that got no answer (not a timeout or a cancellation, which the client words itself), as an ApiError:
 * `certificate` for a certificate that could not be verified, `network` for the rest.
 */
export function describeNetworkFailure(e: unknown, url: string): ApiError {
  const failure = e instanceof SendFailure ? e : undefined;
  const cause = failure ? failure.cause : e;
  const code = errorCode(cause);
  const proxyCode = errorCode(failure?.proxyError);
  const certificate = isCertificateCode(code) ? code : isCertificateCode(proxyCode) ? proxyCode : undefined;
  if (certificate) return certificateFailure(certificate, url, cause);
  if (failure?.proxy && failure.proxyError !== undefined) {
    return new ApiError(
      'network',
      `${proxyWords(failure.proxy, proxyCode)} ${l10n.t(
        'VS Code\'s proxy settings give it for this server (the "http.proxy" setting, the HTTPS_PROXY variable or the system\'s proxy settings): check it, or ask your administrator.',
      )}`,
      { code: proxyCode, cause: failure.proxyError },
    );
  }
  if (code && NOT_TLS.has(code)) {
    return new ApiError(
      'network',
      l10n.t(
        "{0} did not answer in TLS ({1}): check that the address is the server's https:// address; a proxy or firewall in between may also be answering in its place.",
        origin(url),
        code,
      ),
      { code, cause },
    );
  }
  return new ApiError('network', reachWords(code, failure?.proxy), { code, cause });
}

/** A proxy's 407: it wants a sign-in that VS Code did not give (or the writer declined). */
export function proxySignInRequired(proxy: string | undefined): ApiError {
  return new ApiError(
    'network',
    proxy
      ? l10n.t(
          'The proxy {0} asks for a sign-in (HTTP 407) that it did not get. Sign in when VS Code asks, put the user name and password in VS Code\'s "http.proxy" setting (http://user:password@host:port), or ask your administrator.',
          proxy,
        )
      : l10n.t(
          'The proxy between VS Code and the server asks for a sign-in (HTTP 407) that it did not get. Sign in when VS Code asks, put the user name and password in VS Code\'s "http.proxy" setting (http://user:password@host:port), or ask your administrator.',
        ),
    { status: 407 },
  );
}
