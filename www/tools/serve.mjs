// A static file server for dist/: loopback by default, correct MIME types (application/wasm),
// no caching, no directory listing, nothing outside the root. Used by www/serve.sh and the tests.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Resolves a request path under root, or null when it would leave root. */
function resolvePath(root, urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  if (p.endsWith('/')) p += 'index.html';
  const full = path.resolve(root, '.' + p);
  return full === root || full.startsWith(root + path.sep) ? full : null;
}

/** Starts serving root; resolves to { server, url }. port 0 picks a free port. */
export function startServer({ root, port = 8080, host = '127.0.0.1', prefix = '/' }) {
  const absRoot = path.resolve(root);
  const server = http.createServer((req, res) => {
    const urlPath = req.url.startsWith(prefix) ? '/' + req.url.slice(prefix.length) : null;
    const file = urlPath && resolvePath(absRoot, urlPath);
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ server, url: `http://${host}:${actual}${prefix}` });
    });
  });
}

function parseArgs(argv) {
  const args = { root: 'dist', port: 8080, host: '127.0.0.1', check: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--check') args.check = true;
    else if (a === '--root' || a === '--port' || a === '--host') args[a.slice(2)] = argv[++i];
    else throw new Error(`unknown option '${a}' (allowed: --root DIR, --port N, --host ADDRESS, --check)`);
  }
  args.port = Number(args.port);
  if (!Number.isInteger(args.port) || args.port < 1 || args.port > 65535) {
    throw new Error(`--port must be a number from 1 to 65535 (got '${args.port}')`);
  }
  return args;
}

function explain(err, args) {
  if (err.code === 'EADDRINUSE') {
    return `port ${args.port} on ${args.host} is busy: stop what uses it, or choose another with --port N`;
  }
  if (err.code === 'EACCES') return `no permission to listen on port ${args.port}: choose another with --port N`;
  return err.message;
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`error: ${err.message}`);
    process.exit(2);
  }
  if (!args.check && !fs.existsSync(path.join(args.root, 'index.html'))) {
    console.error(`error: ${args.root}/index.html is missing: build first (bash www/tools/build.sh)`);
    process.exit(1);
  }
  try {
    const { server, url } = await startServer({ root: args.root, port: args.port, host: args.host });
    if (args.check) {
      server.close();
      return;
    }
    console.log(`Flywheel is served at ${url} (Ctrl-C stops it)`);
  } catch (err) {
    console.error(`error: ${explain(err, args)}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main();
}
