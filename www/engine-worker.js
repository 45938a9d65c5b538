// The page's engine in a Web Worker: the page's own module, answering the page's messages
// (crates/web/src/host_worker.rs). The page posts its compiled WebAssembly module first, so the
// worker neither fetches nor compiles it again.
import init, { host_worker_start } from '../pkg/flywheel_web.js';

self.onmessage = async (e) => {
  self.onmessage = null;
  await init({ module_or_path: e.data });
  host_worker_start();
};
