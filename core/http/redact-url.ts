/**
 * URLs as they may appear in logs, answers and error messages: credentials
 * (user:password@) and the values of query parameters that look like
 * secrets (token, key, signature …) are replaced by "***".
 */

const SECRET_PARAMETER = /(?:token|key|secret|sig|signature|password|passwd|pwd|auth|credential|session|code)/i;

export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL: still hide anything shaped like credentials before an "@".
    return raw.replace(/\/\/[^/@\s]*@/g, '//***@');
  }
  if (url.username) url.username = '***';
  if (url.password) url.password = '***';
  for (const name of new Set(url.searchParams.keys())) {
    if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, '***');
  }
  return url.href;
}

/** Redacts every http(s) URL inside a free-text message. */
export function redactUrlsIn(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (url) => redactUrl(url));
}
