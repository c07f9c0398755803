// A minimal static file server for the built site (dist/), for the browser
// tests: 127.0.0.1, a free port, the right MIME types (application/wasm for
// instantiateStreaming), no caching, nothing outside the root, and the
// site's page for a page path that is not a file.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  url: string;
  /** Paths requested that were not found (the page should have none). */
  missing: string[];
  close(): Promise<void>;
}

export async function serveStatic(root: string): Promise<StaticServer> {
  const base = path.resolve(root);
  const missing: string[] = [];
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    let file = path.resolve(base, `.${pathname}`);
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      // A page path that is not a file (no extension: /a/b) gets the site's page, as hosts that
      // fall back to index.html serve it (nginx's try_files $uri /index.html); files stay 404.
      if (!existsSync(file) && path.extname(pathname) === '') file = path.join(base, 'index.html');
      if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
      const size = statSync(file).size;
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': size,
        'Cache-Control': 'no-store',
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    } catch {
      missing.push(pathname);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    missing,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
