/**
 * nginx's built-in response pages and status lines, from src/http/ngx_http_special_response.c
 * (the page bodies: `<title>`, `<h1>` and the tail naming the server) and
 * src/http/ngx_http_header_filter_module.c (ngx_http_status_lines: the reason in the status line,
 * which differs from the page title for 302 and 401). Pure text; no imports, so both the image
 * catalogue and the traffic layer can use it.
 */

/** Reasons of the status line (ngx_http_status_lines). */
const STATUS_LINES: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 206: 'Partial Content',
  301: 'Moved Permanently', 302: 'Moved Temporarily', 303: 'See Other', 304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Not Allowed', 406: 'Not Acceptable',
  408: 'Request Time-out', 409: 'Conflict', 410: 'Gone', 411: 'Length Required', 412: 'Precondition Failed', 413: 'Request Entity Too Large',
  414: 'Request-URI Too Large', 415: 'Unsupported Media Type', 416: 'Requested Range Not Satisfiable', 421: 'Misdirected Request', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out',
  505: 'HTTP Version Not Supported', 507: 'Insufficient Storage',
};

/** Page titles where they differ from the status line (ngx_http_error_302_page, ngx_http_error_401_page). */
const PAGE_TITLES: Record<number, string> = { 302: 'Found', 401: 'Authorization Required' };

/** The status line's reason; nginx sends a status it has no line for as the bare number. */
export function nginxReason(status: number): string {
  return STATUS_LINES[status] ?? '';
}

/** Whether nginx has a built-in page for `status` (ngx_http_error_pages: 301–308, 400–429, 500–507). */
export function hasNginxPage(status: number): boolean {
  return (status >= 301 && status !== 304 && status <= 308) || (status >= 400 && STATUS_LINES[status] !== undefined);
}

/**
 * nginx's built-in page for `status`; `server` is the tail: `nginx` with server_tokens off
 * (ngx_http_error_tail), `nginx/VERSION` with server_tokens on (ngx_http_error_full_tail).
 */
export function nginxErrorPage(status: number, reason: string, server = 'nginx'): string {
  return `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>${server}</center>\r\n</body>\r\n</html>\r\n`;
}

/** The built-in page for `status` with its own title (302 Found, 401 Authorization Required). */
export function nginxStatusPage(status: number, server: string): string {
  return nginxErrorPage(status, PAGE_TITLES[status] ?? nginxReason(status), server);
}
