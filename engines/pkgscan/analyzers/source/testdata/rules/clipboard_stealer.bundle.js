// a bundle of browser composables: a clipboard helper, a timer helper and a fetch helper, far apart
function useIntervalFn(cb, interval) {
  // ok: clipboard_stealer
  const id = setInterval(cb, interval);
  return () => clearInterval(id);
}
function useFetch(url, options) {
  return fetch(url, options).then((r) => r.json());
}
function useDebounced(fn, ms) {
  let t;
  return (...a) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...a), ms);
  };
}
function useTitle(title) {
  const prev = document.title;
  document.title = title;
  return () => { document.title = prev; };
}
function useLocalStorage(key, initial) {
  const raw = window.localStorage.getItem(key);
  const value = raw === null ? initial : JSON.parse(raw);
  const set = (v) => window.localStorage.setItem(key, JSON.stringify(v));
  return [value, set];
}
function useClipboard() {
  const state = { text: '' };
  async function updateText() {
    state.text = await navigator.clipboard.readText();
  }
  return { state, updateText };
}
function useGeolocation(options) {
  const coords = { latitude: 0, longitude: 0 };
  navigator.geolocation.watchPosition((p) => Object.assign(coords, p.coords), undefined, options);
  return coords;
}
function useMediaQuery(q) {
  const m = window.matchMedia(q);
  return { matches: m.matches };
}
export { useIntervalFn, useFetch, useDebounced, useClipboard, useGeolocation, useMediaQuery };
