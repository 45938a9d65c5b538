// Loads the WebAssembly module; the module mounts the app into #app. Paths are relative so the
// page works from any sub-path of any static host.
import init from '../pkg/flywheel_web.js';

// The module is built with WebAssembly SIMD (.cargo/config.toml). A browser without it cannot
// compile the module at all; rather than a compile error, say what the page needs. The probe is
// the smallest module that uses it: one function returning a vector (i32.const 0, i8x16.splat).
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // the type section: one type, () -> v128
  0x03, 0x02, 0x01, 0x00, // the function section: one function of that type
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // its body, then `end`
]);

const NEEDS_SIMD = {
  en: 'Flywheel needs a browser that runs WebAssembly SIMD: Chrome or Edge 91, Firefox 89, Safari 16.4 or newer. Please update this browser or open the page in another one.',
  zh: 'Flywheel 需要支持 WebAssembly SIMD 的浏览器：Chrome 或 Edge 91、Firefox 89、Safari 16.4 及更新的版本。请更新此浏览器，或换一个浏览器打开本页。',
};

/** The page's language: the address bar's `lang`, else the browser's (the module also reads the stored settings; this runs before it). */
function pageLang() {
  const asked = new URLSearchParams(location.search).get('lang');
  const tags = asked ? [asked] : (navigator.languages ?? [navigator.language ?? '']);
  for (const tag of tags) {
    const t = String(tag).toLowerCase();
    if (t === 'en' || t.startsWith('en-')) return 'en';
    if (t === 'zh' || t.startsWith('zh-') || t.startsWith('zh_')) return 'zh';
  }
  return 'en';
}

function showLoadError(text) {
  const app = document.getElementById('app');
  const p = document.createElement('p');
  p.className = 'load-error';
  p.setAttribute('role', 'alert');
  p.textContent = text;
  app.replaceChildren(p);
}

if (typeof WebAssembly !== 'object' || !WebAssembly.validate(SIMD_PROBE)) {
  const lang = pageLang();
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  showLoadError(NEEDS_SIMD[lang]);
} else {
  init().catch((err) => {
    showLoadError(`Flywheel could not start: ${err && err.message ? err.message : err}`);
    console.error(err);
  });
}
