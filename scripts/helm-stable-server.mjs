/**
 * The offline chart repository fixtures/helm/stable served over HTTP for the recorders that run
 * the real helm against it (record-helm.mjs, record-helm-package.mjs): `GET /stable/<file>`, with
 * index.yaml's https://charts.example.com/stable URLs rewritten to the served address, and Go's
 * `404 page not found` otherwise. Resolves to the listening server (close it when done).
 */
import { Buffer } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

export function serveStable(stableDir, port) {
  const url = `http://127.0.0.1:${port}/stable`;
  const server = createServer((req, res) => {
    const name = (req.url ?? '').replace(/^\/stable\//, '');
    const file = join(stableDir, name);
    if (!(req.url ?? '').startsWith('/stable/') || name.includes('/') || !existsSync(file)) {
      res.writeHead(404);
      res.end('404 page not found\n');
      return;
    }
    let data = readFileSync(file);
    if (name === 'index.yaml') data = Buffer.from(data.toString('utf8').replaceAll('https://charts.example.com/stable', url));
    res.end(data);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
