// Loads the WebAssembly module; the module mounts the app into #app. Paths are relative so the
// page works from any sub-path of any static host.
import init from '../pkg/flywheel_web.js';

init().catch((err) => {
  const app = document.getElementById('app');
  const p = document.createElement('p');
  p.className = 'load-error';
  p.textContent = `Flywheel could not start: ${err && err.message ? err.message : err}`;
  app.replaceChildren(p);
  console.error(err);
});
